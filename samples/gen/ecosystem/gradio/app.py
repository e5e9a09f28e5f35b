"""The Gradio app of the gradio group (samples/gen/ecosystem/gradio.sh): three plain functions made into MCP tools by
`demo.launch(mcp_server=True)` (gradio 6.31.0, the `mcp` extra: Gradio's own MCP server, `gradio/mcp.py`), on
127.0.0.1 only, fully offline.

    python app.py PORT

Tools (Gradio names each after its function's api_name; the docstrings are the descriptions and the "Args:" lines
the parameter descriptions):
  add(a, b)          two numbers added
  echo(text)         the text back
  count_slowly(n)    counts to n, 0.1 s a step, reporting each step with gr.Progress (Gradio maps the queue's status
                     and progress updates to MCP notifications/progress when the request carries a progressToken)

Everything else is Gradio's default: every event queued (so Gradio's MCP server runs each tool call through its own
HTTP loopback, gradio_client -> /gradio_api/queue/join + /gradio_api/queue/data on this same port), no SSR (the
Node front is off: ssr_mode=False), no share link. No network beyond 127.0.0.1: GRADIO_ANALYTICS_ENABLED=False (no
version check or telemetry to api.gradio.app; Gradio then also sets HF_HUB_DISABLE_TELEMETRY), set by gradio.sh
and again here before gradio is imported.
"""

import os
import sys
import time

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

import gradio as gr  # noqa: E402


def add(a: float, b: float) -> float:
    """Add two numbers.

    Args:
        a: the first number
        b: the second number
    """
    return a + b


def echo(text: str) -> str:
    """Echo the text back.

    Args:
        text: the text to echo
    """
    return text


def count_slowly(n: float, progress=gr.Progress()) -> str:
    """Count to n, 0.1 s a step, reporting each step as progress.

    Args:
        n: how far to count
    """
    n = int(n)
    for i in progress.tqdm(range(n), desc="counting"):
        time.sleep(0.1)
    return f"counted to {n}"


def build() -> gr.Blocks:
    with gr.Blocks(title="mcptap-gradio") as demo:
        a = gr.Number(label="a")
        b = gr.Number(label="b")
        text = gr.Textbox(label="text")
        n = gr.Number(label="n", value=3)
        out = gr.Textbox(label="out")
        gr.Button("add").click(add, [a, b], out, api_name="add")
        gr.Button("echo").click(echo, [text], out, api_name="echo")
        gr.Button("count").click(count_slowly, [n], out, api_name="count_slowly")
    return demo


if __name__ == "__main__":
    port = int(sys.argv[1])
    build().launch(server_name="127.0.0.1", server_port=port, mcp_server=True, ssr_mode=False, share=False,
                   inbrowser=False, show_error=True, quiet=False)

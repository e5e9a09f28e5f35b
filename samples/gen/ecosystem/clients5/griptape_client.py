"""clients5 driver for griptape 1.13.0's MCPTool (griptape.tools.MCPTool, on the official Python SDK mcp 1.30.0's
streamablehttp_client / sse_client), used the way a griptape Agent's ToolkitTask runs it, no model: the tool is built
(without its pip install of requirements, see below; it opens a session to list the server's tools and turns each
into an activity), then activities are invoked with the values a model would choose. Every activity opens its own session (initialize, tools/call, close).

    python griptape_client.py URL [http|sse|restart]
"""

import sys
import time

from griptape.tools import MCPTool


def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "http"
    if mode == "sse":
        conn = {"transport": "sse", "url": url}
    else:
        conn = {"transport": "streamable_http", "url": url}
    # install_dependencies_on_init=False: griptape's BaseTool otherwise runs `pip install -r requirements.txt` of the
    # MCP tool's folder on every MCPTool construction (its check passes the line "mcp[ws]>=1.10.0,<2" to
    # importlib.metadata.version, which never finds it), a PyPI lookup the offline guard saw in a first run.
    tool = MCPTool(name="clients5", connection=conn, install_dependencies_on_init=False)
    print("activities:", ", ".join(sorted(tool.activity_name(a) for a in tool.activities())))

    def call(name: str, values: dict) -> None:
        fn = getattr(tool, name, None)
        if fn is None:
            print(f"{name}: no such activity")
            return
        art = fn({"values": values})
        print(f"{name} -> {type(art).__name__}: {art.to_text()[:200]}", flush=True)

    if mode == "restart":
        call("add", {"a": 1, "b": 2})
        time.sleep(6)
        call("add", {"a": 3, "b": 4})
        call("add", {"a": 5, "b": 6})
        call("add", {"a": 7, "b": 8})
    else:
        call("add", {"a": 1, "b": 2})
        call("slow_count", {"n": 3})
        call("fail", {"reason": "boom"})
    print("done")


if __name__ == "__main__":
    main()

"""Strands Agents (PyPI `strands-agents`, on the Python SDK mcp it pins: `mcp<2.2`) as an MCP client without an LLM
(no Agent is made: its default model is Amazon Bedrock, whose boto3 client would look for credentials on the
network): `with MCPClient(url=U, progress_callback=...) as client:` (its background thread connects and negotiates),
`client.list_tools_sync()`, then `client.call_tool_sync(tool_use_id, name, args)` for add(1,2), echo("hello"),
slow_count(3), add(40,2) (../pysdk_tools.py CALLS), 0.1 s apart, then the `with` block ends (stop). One MCP
connection for the whole block. The client-level progress_callback is Strands' documented option for progress
(the request then carries a progressToken); the model-driven path (MCPAgentTool) goes through the same
call_tool_async.

    python strands_client.py streamable-http http://127.0.0.1:PORT/mcp   (MCPClient(url=U): its streamable HTTP)
    python strands_client.py sse http://127.0.0.1:PORT/sse               (MCPClient(lambda: sse_client(U)))

Bounded: `timeout 60` in agents2.sh and MCPClient's startup_timeout=30. Runs in agents2/.venv-strands
(requirements-strands.txt); agents2.sh switches OpenTelemetry off (OTEL_SDK_DISABLED=true).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def progress(progress, total, message):
    log("progress", progress, total, message)


def main(transport: str, url: str) -> None:
    from strands.tools.mcp import MCPClient

    if transport == "sse":
        from mcp.client.sse import sse_client
        client = MCPClient(lambda: sse_client(url), startup_timeout=30, progress_callback=progress)
    else:
        client = MCPClient(url=url, startup_timeout=30, progress_callback=progress)
    with client:
        tools = client.list_tools_sync()
        log("tools", [t.tool_name for t in tools])
        for i, (name, arguments) in enumerate(CALLS):
            r = client.call_tool_sync(f"call-{i}", name, arguments)
            log(name, arguments, "->", r["status"], [c.get("text") for c in r["content"]])
            time.sleep(0.1)
    log("closed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""chuk-mcp-server's server (chuk-mcp-server 0.26.1: its own Streamable HTTP endpoint on Starlette under uvicorn, no
MCP SDK) with the corpus tools.

    python chuk_server.py PORT

Streamable HTTP on /mcp: a POST whose Accept names text/event-stream is answered with an SSE stream (every
request but notifications), otherwise JSON; initialize mints Mcp-Session-Id; GET with that id opens a stream;
DELETE ends the session. Tools: add(a, b), echo(text), slow_count(n) (n steps 0.1 s apart, one progress
notification each when the call carries a progressToken).
"""
import asyncio
import sys

from chuk_mcp_server import ChukMCPServer
from chuk_mcp_server.context import send_progress

mcp = ChukMCPServer(name="mcptap-pyservers3-chuk", version="0.1.0", host="127.0.0.1", port=int(sys.argv[1]))


@mcp.tool
def add(a: int, b: int) -> str:
    """Add two integers"""
    return str(a + b)


@mcp.tool
def echo(text: str) -> str:
    """Echo a text"""
    return text


@mcp.tool
async def slow_count(n: int) -> str:
    """Count to n, 0.1 s a step, with a progress notification per step"""
    for i in range(1, n + 1):
        await asyncio.sleep(0.1)
        await send_progress(i, n, f"step {i}")
    return f"counted to {n}"


if __name__ == "__main__":
    mcp.run(host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

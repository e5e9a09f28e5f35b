"""aiohttp-mcp (PyPI aiohttp-mcp 0.7.0) server for the indie group: its own aiohttp HTTP transports (an aiohttp port
of the SDK's SSE and Streamable HTTP transports, aiohttp-sse for the event stream) around the MCP server core of the
official Python SDK 1.x it depends on (mcp 1.30.0, FastMCP tool registry). Tools add, echo, slow_count (n progress
notifications 0.1 s apart through the request's Context), as the other groups' Python servers.

    python aiohttp_server.py PORT             # build_mcp_app defaults: TransportMode.SSE (GET /mcp stream, POST /mcp)
    python aiohttp_server.py PORT --stateless # the README's production setup: STREAMABLE_HTTP, stateless=True
"""

import asyncio
import sys

from aiohttp import web
from aiohttp_mcp import AiohttpMCP, TransportMode, build_mcp_app
from mcp.server.fastmcp import Context

mcp = AiohttpMCP(name="indie-aiohttp-mcp", log_level="WARNING")


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@mcp.tool()
async def slow_count(n: int, ctx: Context) -> str:
    """Count to n, one progress notification per step."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i}")
        await asyncio.sleep(0.1)
    return f"counted to {n}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    if "--stateless" in sys.argv:
        app = build_mcp_app(mcp, path="/mcp", transport_mode=TransportMode.STREAMABLE_HTTP, stateless=True)
    else:
        app = build_mcp_app(mcp, path="/mcp")
    web.run_app(app, host="127.0.0.1", port=port, print=None)

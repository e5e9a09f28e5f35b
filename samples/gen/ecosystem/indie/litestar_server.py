"""litestar-mcp (PyPI litestar-mcp 0.16.0) server for the indie group: a Litestar plugin with its own JSON-RPC router
and HTTP transport (no dependency on the official SDK), speaking only the stateless 2026-07-28 protocol on POST /mcp
(server/discover, Mcp-Method/Mcp-Name headers, SSE only for requests carrying a progressToken). Defaults
(`LitestarMCP()`, MCPConfig() base path /mcp) under uvicorn. Tools are Litestar routes marked `mcp_tool=`: add, echo,
slow_count (n progress notifications 0.1 s apart through get_mcp_request_context().report_progress).

    python litestar_server.py PORT
"""

import asyncio
import sys

import uvicorn
from litestar import Litestar, post
from litestar_mcp import LitestarMCP, get_mcp_request_context


@post("/add", mcp_tool="add", sync_to_thread=False)
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@post("/echo", mcp_tool="echo", sync_to_thread=False)
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@post("/slow_count", mcp_tool="slow_count")
async def slow_count(n: int) -> str:
    """Count to n, one progress notification per step."""
    ctx = get_mcp_request_context()
    for i in range(1, n + 1):
        if ctx is not None and ctx.progress_token is not None:
            await ctx.report_progress(i, n, f"step {i}")
        await asyncio.sleep(0.1)
    return f"counted to {n}"


app = Litestar(route_handlers=[add, echo, slow_count], plugins=[LitestarMCP()])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

"""FastMCP 2.x (PyPI fastmcp 2.14.7, on the Python SDK mcp 1.x) server for the eras2 captures, its HTTP transport
with its defaults (`mcp.run(transport="http")`: Streamable HTTP at /mcp, stateful, SSE replies, no event store),
tools add(a,b), echo(text), slow_count(n) (n progress notifications 0.1 s apart).

    python fastmcp2_server.py PORT
"""

import asyncio
import sys

from fastmcp import Context, FastMCP

mcp = FastMCP("eras2-fastmcp2-server")


@mcp.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@mcp.tool
async def slow_count(n: int, ctx: Context) -> str:
    """Count to n, one progress notification per step."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, n)
        await asyncio.sleep(0.1)
    return f"counted to {n}"


if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", show_banner=False)

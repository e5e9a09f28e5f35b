"""bolt-mcp 0.2.3 on django-bolt 0.13.0, the README's setup (MCP defaults: stateful, SSE replies), mounted at /mcp.
Tools: add, echo, slow (n progress notifications via ctx.report_progress, 1 s apart)."""
import asyncio

from bolt_mcp import MCP, Context
from django_bolt import BoltAPI

api = BoltAPI()
mcp = MCP("servers8-bolt", "1.0.0")


@mcp.tool
async def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@mcp.tool
async def echo(text: str) -> str:
    """Echo text."""
    return text


@mcp.tool
async def slow(n: int, ctx: Context) -> str:
    """Wait n seconds, reporting progress."""
    for i in range(n):
        await asyncio.sleep(1)
        await ctx.report_progress(i + 1, n)
    return f"waited {n} s"


api.mount_mcp(mcp)

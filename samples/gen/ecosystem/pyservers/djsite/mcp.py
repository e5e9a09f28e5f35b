"""The MCP tools of the django-mcp-server site (an MCPToolset: each public method is a tool; django-mcp-server
registers them on its global server at startup): add, echo, slow_count (n progress notifications 0.1 s apart through
the SDK Context, which django-mcp-server forwards when the method takes one)."""
import time

from asgiref.sync import async_to_sync
from mcp.server.fastmcp import Context
from mcp_server import MCPToolset


class PyserversTools(MCPToolset):
    def add(self, a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    def echo(self, text: str) -> str:
        """Echo the text back."""
        return text

    def slow_count(self, n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            async_to_sync(ctx.report_progress)(i, n, f"step {i}")
            time.sleep(0.1)
        return f"counted to {n}"

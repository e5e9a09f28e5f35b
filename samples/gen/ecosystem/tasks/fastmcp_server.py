"""mcptap ecosystem group "tasks": FastMCP 4.1.4 with fastmcp-tasks 4.1.4 (the SEP-2663 `io.modelcontextprotocol/tasks`
extension, docket backend on its in-memory default), served over Streamable HTTP with FastMCP's defaults, the way the
fastmcp-tasks README shows it. One tool, `analyze(secs)`, declared task=True: it sleeps secs seconds in the background
worker, reporting progress each second.

    python fastmcp_server.py PORT
"""

import asyncio
import sys

from fastmcp import Context, FastMCP
from fastmcp_tasks import TasksExtension

mcp = FastMCP("Analytics")
mcp.add_extension(TasksExtension())


@mcp.tool(task=True)
async def analyze(secs: int, ctx: Context) -> str:
    """Long-running analysis (secs seconds)."""
    for i in range(secs):
        await asyncio.sleep(1)
        await ctx.report_progress(i + 1, secs)
    return f"analyzed for {secs}s"


if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[1]), path="/mcp")

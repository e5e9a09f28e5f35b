"""The buffering group's Python SDK server (mcp 2.3.0, the sdks group's venv ../sdks/.venv): MCPServer's
streamable_http_app on /mcp under uvicorn, 127.0.0.1 only, HTTP/1.1, with the SDK's defaults (stateful, SSE replies
without ids, no event store, sse-starlette's `: ping` comment every 15 s, `X-Accel-Buffering: no` on SSE).

    python py_server.py PORT

Tools (what tools/list puts on the wire):
  add(a, b)               the sum
  slow_count(n, gap)      n notifications/progress GAP seconds apart on the request's own SSE reply (when the call
                          carries a progressToken), then the result
  announce(n, gap)        answers at once, then sends n notifications/resources/updated GAP seconds apart on the
                          session's standalone GET stream (no related request)
"""

import asyncio
import sys

import uvicorn
from mcp import types
from mcp.server.mcpserver import Context, MCPServer

HOST = "127.0.0.1"
server = MCPServer("buffering-py-server", version="1.0.0")
_tasks = set()


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
async def slow_count(n: int, gap: float, ctx: Context) -> str:
    """Count to n, reporting progress every gap seconds."""
    for i in range(1, n + 1):
        await ctx.report_progress(i, n, f"step {i}")
        if i < n:
            await asyncio.sleep(gap)
    await asyncio.sleep(gap)
    return f"counted to {n}"


@server.tool()
async def announce(n: int, gap: float, ctx: Context) -> str:
    """Send n resource-updated notifications on the standalone stream, gap seconds apart."""
    session = ctx.request_context.session

    async def run():
        for i in range(1, n + 1):
            await asyncio.sleep(gap)
            await session.send_notification(types.ResourceUpdatedNotification(
                params=types.ResourceUpdatedNotificationParams(uri=f"memo://tick/{i}")))

    t = asyncio.get_running_loop().create_task(run())
    _tasks.add(t)
    t.add_done_callback(_tasks.discard)
    return f"announcing {n}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    uvicorn.run(server.streamable_http_app(streamable_http_path="/mcp", host=HOST), host=HOST, port=port,
                log_level="warning", lifespan="on")

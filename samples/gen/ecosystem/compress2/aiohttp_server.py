"""aiohttp-mcp 0.7.0 (its Streamable HTTP session manager on aiohttp 3.14.5, stateful, no event store) with
aiohttp's own response compression, `response.enable_compression()` (aiohttp picks gzip or deflate from
Accept-Encoding; `deflate` forces ContentCoding.deflate), switched on one of two ways:
- default: a middleware calls it on every response the handler returns unprepared and with a body (aiohttp-mcp's
  JSON replies; its SSE replies were already streamed inside the handler, and aiohttp-sse's EventSourceResponse
  refuses enable_compression with NotImplementedError);
- `all`: the same middleware without the body test: aiohttp 3.14.5 asserts `self._body is not None` when it starts
  compressing a body-less web.Response (aiohttp-mcp's 202 and DELETE answers), and drops the connection;
- `naive`: an on_response_prepare signal handler calls it on every response (what a first try does). In aiohttp
  3.14 the signal runs after the head's compression was decided, so plain responses stay uncompressed, and
  EventSourceResponse raises: every SSE reply becomes a 500.
30 tools; `slow` reports progress each second for 5 s (ctx.report_progress).

    python aiohttp_server.py PORT sse|json [deflate|naive|all]
"""

import asyncio
import sys

from aiohttp import web
from aiohttp.web_response import ContentCoding
from aiohttp_mcp import AiohttpMCP, build_mcp_app
from aiohttp_mcp.app import TransportMode
from mcp.server.fastmcp import Context

port, mode = int(sys.argv[1]), sys.argv[2]
variant = sys.argv[3] if len(sys.argv) > 3 else ""
force = ContentCoding.deflate if variant == "deflate" else None

mcp = AiohttpMCP(name="compress2-aiohttp")


@mcp.tool(description="Echo the text back to the caller, unchanged.")
async def echo(text: str, count: int = 1) -> str:
    return f"echo: {text}"


@mcp.tool(description="Work for five seconds, reporting progress every second, then answer.")
async def slow(text: str, ctx: Context, count: int = 1) -> str:
    for step in range(1, 6):
        await asyncio.sleep(1)
        await ctx.report_progress(step, 5, f"step {step} of 5")
    return f"slow done: {text}"


def catalog(i):
    name = f"catalog_tool_{i:02d}"

    async def tool(text: str, count: int = 1) -> str:
        return f"{name}: {text}"

    mcp.tool(name=name, description=f"Catalogue tool number {i}: looks up an entry in the inventory catalogue and "
                                    "returns its description, price and stock level.")(tool)


for i in range(28):
    catalog(i)


async def on_prepare(request, response):
    response.enable_compression(force)


@web.middleware
async def compress(request, handler):
    response = await handler(request)
    if not response.prepared and (variant == "all" or response.body is not None):
        response.enable_compression(force)
    return response


app = build_mcp_app(mcp, path="/mcp", transport_mode=TransportMode.STREAMABLE_HTTP, json_response=(mode == "json"))
if variant == "naive":
    app.on_response_prepare.append(on_prepare)
else:
    app.middlewares.append(compress)
web.run_app(app, host="127.0.0.1", port=port, print=None)

"""MCP over WebSocket with the Python SDK 1.x (mcp 1.30.0, its deprecated `mcp.server.websocket.websocket_server`,
the way the SDK's own tests mount it: a Starlette WebSocketRoute, uvicorn with the `websockets` library). A low-level
Server with tools add, echo and slow_count (progress notifications), a resource, and logging.
    python ws_server.py PORT [--no-deflate]       (WebSocket at ws://127.0.0.1:PORT/ws)
--no-deflate: uvicorn's ws_per_message_deflate=False (its --ws-per-message-deflate setting), so the server's frames
carry the JSON-RPC text as it is (unmasked, server to client) instead of permessage-deflate compressed.
"""

import sys
import warnings

import anyio
import mcp.types as types
import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.websocket import websocket_server
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

warnings.simplefilter("ignore", DeprecationWarning)
server = Server("nonmcp3-ws-server", version="0.1.0")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    num = {"type": "integer"}
    return [
        types.Tool(name="add", description="Add two integers.", inputSchema={"type": "object", "properties": {"a": num, "b": num}, "required": ["a", "b"]}),
        types.Tool(name="echo", description="Echo the text.", inputSchema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        types.Tool(name="slow_count", description="Count to n, one progress notification every 0.1 s.", inputSchema={"type": "object", "properties": {"n": num}, "required": ["n"]}),
    ]


@server.call_tool()
async def call_tool(name: str, args: dict) -> list[types.TextContent]:
    ctx = server.request_context
    if name == "add":
        return [types.TextContent(type="text", text=str(args["a"] + args["b"]))]
    if name == "echo":
        return [types.TextContent(type="text", text=args["text"])]
    if name == "slow_count":
        token = ctx.meta.progressToken if ctx.meta else None
        for i in range(1, args["n"] + 1):
            await anyio.sleep(0.1)
            if token is not None:
                await ctx.session.send_progress_notification(token, i, args["n"])
        await ctx.session.send_log_message("info", f"counted to {args['n']}")
        return [types.TextContent(type="text", text=f"counted to {args['n']}")]
    raise ValueError(f"unknown tool {name}")


@server.list_resources()
async def list_resources() -> list[types.Resource]:
    return [types.Resource(uri="memo://readme", name="readme", mimeType="text/plain")]


@server.read_resource()
async def read_resource(uri) -> str:
    return "MCP over WebSocket is not part of the MCP specification."


async def ws_endpoint(websocket):
    async with websocket_server(websocket.scope, websocket.receive, websocket.send) as (read, write):
        await server.run(read, write, server.create_initialization_options())


app = Starlette(routes=[WebSocketRoute("/ws", endpoint=ws_endpoint)])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=False,
                ws_per_message_deflate="--no-deflate" not in sys.argv)

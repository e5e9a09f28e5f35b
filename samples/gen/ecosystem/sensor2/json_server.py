"""sensor2's JSON-reply server: the official Python SDK (mcp 2.3.0, the sdks group's venv) MCPServer as
`streamable_http_app(json_response=True)` (stateful, every POST answered with one application/json body, so a slow
tool keeps its connection silent: no SSE stream, no keep-alive comments), under uvicorn on 127.0.0.1, HTTP/1.1.

    python json_server.py PORT

Tool: wait(seconds) sleeps that long and returns "waited N s".
"""

import asyncio
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

HOST = "127.0.0.1"

server = MCPServer("sensor2-json-server", version="1.0.0")


@server.tool()
async def wait(seconds: float) -> str:
    """Sleep `seconds`, then answer."""
    await asyncio.sleep(seconds)
    return f"waited {seconds} s"


if __name__ == "__main__":
    port = int(sys.argv[1])
    app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST, json_response=True)
    uvicorn.run(app, host=HOST, port=port, log_level="warning", lifespan="on")

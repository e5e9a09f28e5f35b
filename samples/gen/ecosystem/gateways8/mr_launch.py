"""Launcher of mcp-router 1.1.0 (PyPI) in its HTTP mode for the gateways8 captures. The wheel has no entry point
and no main.py (its README runs `python main.py http` from a source checkout), so this does what that mode does with
the package's own classes: MCPClientManager(data_path=DATA) loads DATA/*/mcp_settings.json and connects every active
upstream, MCPRouter over it, MCPServer(router, transport_type="http").run(HOST, PORT) (Starlette + uvicorn, POST /mcp).

    python mr_launch.py DATA HOST PORT
"""

import asyncio
import sys

from src.mcp.client import MCPClientManager
from src.mcp.router import MCPRouter
from src.mcp.server import MCPServer


async def main(data, host, port):
    manager = MCPClientManager(data_path=data, timeout=15.0)
    await manager.load_configurations()
    server = MCPServer(MCPRouter(manager), name="mcp_router", transport_type="http")
    try:
        await server.run(host, port)
    finally:
        await manager.shutdown()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))

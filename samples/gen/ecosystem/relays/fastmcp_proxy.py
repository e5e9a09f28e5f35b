"""FastMCP's proxy (PyPI `fastmcp`, relays/.venv-fastmcp) in front of a backend MCP server, served over Streamable
HTTP, for the relays group:

    python fastmcp_proxy.py PORT BACKEND-URL

`fastmcp.server.create_proxy(BACKEND-URL)` (the documented way; `FastMCP.as_proxy` is its older spelling) with every
default: the backend transport is inferred from the URL (".../sse": the legacy HTTP+SSE client, otherwise Streamable
HTTP), a fresh backend client per front request whose era mirrors the front connection's, no explicit mode. Served
with the proxy's own `run(transport="http")` on 127.0.0.1:PORT (path /mcp, FastMCP's HTTP defaults: stateful, SSE
replies), HTTP/1.1 under uvicorn.
"""

import sys

from fastmcp.server import create_proxy

if __name__ == "__main__":
    port, backend = int(sys.argv[1]), sys.argv[2]
    proxy = create_proxy(backend, name=f"relays-fastmcp-proxy-{port}")
    proxy.run(transport="http", host="127.0.0.1", port=port, log_level="warning")

"""Adds the upstream MCP server to an authmcp-gateway 1.2.74 database (run in gateways10/.venv-authmcp after the
gateway's own `authmcp-gateway init-db --db-path DB`): one `mcp_servers` row made with the gateway's own store
function (what the admin UI's "add MCP server" form calls), no backend auth, default prefix routing. No network.

    python am_setup.py DB NAME URL
"""

import sys

from authmcp_gateway.mcp.store import create_mcp_server, init_mcp_database

db, name, url = sys.argv[1:4]
init_mcp_database(db)
sid = create_mcp_server(db, name=name, url=url, description="gateways10 upstream", enabled=True, auth_type="none")
print("server", sid, name, url)

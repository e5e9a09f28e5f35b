"""A proxy.py 2.4.10 reverse-proxy route plugin of the proxies5 group (samples/gen/ecosystem/proxies5.sh).

proxy.py's reverse proxy (`--enable-reverse-proxy`) takes its routes from ReverseProxyBasePlugin subclasses; the one it
ships (proxy.plugin.ReverseProxyPlugin) routes /get to a public host, so this one is used instead: one static route,
every path under /mcp to the MCP server on 127.0.0.1:$PROXIES5_BACKEND/mcp. Everything else is proxy.py's default.

    PYTHONPATH=proxies5 proxy --hostname 127.0.0.1 --port FRONT --enable-reverse-proxy --plugins pp_routes.McpRoute
"""

import os

from proxy.http.server import ReverseProxyBasePlugin


class McpRoute(ReverseProxyBasePlugin):
    def routes(self):
        back = os.environ["PROXIES5_BACKEND"]
        return [(r"/mcp", [f"http://127.0.0.1:{back}/mcp".encode()])]

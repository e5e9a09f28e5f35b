"""Twisted's reverse proxy (twisted.web.proxy.ReverseProxyResource, Twisted 26.4.0) in front of an MCP server, for the
proxies5 group (samples/gen/ecosystem/proxies5.sh): the resource as Twisted's documentation shows it, the site root
proxied to 127.0.0.1:BACK (so /mcp goes to /mcp), served by twisted.web.server.Site on 127.0.0.1:FRONT. Defaults
otherwise (the resource sets Host to the backend's host:port and opens one backend connection per request).

    python twisted_proxy.py FRONT BACK
"""

import sys

from twisted.internet import reactor
from twisted.web import proxy, server

front, back = int(sys.argv[1]), int(sys.argv[2])
site = server.Site(proxy.ReverseProxyResource("127.0.0.1", back, b""))
reactor.listenTCP(front, site, interface="127.0.0.1")
print(f"twisted reverse proxy 127.0.0.1:{front} -> 127.0.0.1:{back}", file=sys.stderr, flush=True)
reactor.run()

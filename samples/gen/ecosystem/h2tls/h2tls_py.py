"""Python pieces of samples/gen/ecosystem/h2tls.sh: the Python SDK (mcp) server as an ASGI app for hypercorn, and
the Python SDK client over httpx2 with HTTP/2 on, each with the library's defaults plus only what a user adds to
get TLS and h2.

    hypercorn --certfile C --keyfile K --bind 127.0.0.1:N h2tls_py:app    the server, h2 over TLS (ALPN h2)
    hypercorn --bind 127.0.0.1:N h2tls_py:app                             the same, cleartext (behind nginx)
    SSLKEYLOGFILE=K python h2tls_py.py client --url https://127.0.0.1:N/mcp --ca C [--mode auto|legacy]

The server is the sdks group's `pyserver` (sdks/py/sdks_py.py) as an app: MCPServer with the tools add(a,b),
echo(text) and slow_count(n) (n progress notifications, 0.1 s apart), `streamable_http_app` on /mcp with its
defaults (stateful, SSE replies, no event store). The client: `Client(streamable_http_client(url,
http_client=httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=C))), mode=...)` (mode "auto",
the default: server/discover first; "legacy": initialize), then tools/list, add(1,2), echo("hello"),
slow_count(3) with a progress callback, add(40,2), close; bounded by a 30 s timeout.
`ssl.create_default_context` writes the TLS key log to $SSLKEYLOGFILE (Python's own behaviour).
"""

import argparse
import asyncio
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, over_httpx2, streamable_app  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)


async def run_client(args) -> None:
    import httpx2

    http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=args.ca),
                              timeout=httpx2.Timeout(30.0, read=300.0))
    await over_httpx2(args.url, http, args.mode, CALLS, 30)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--ca", required=True, help="CA file to trust (the server's self-signed certificate)")
    c.add_argument("--mode", default="auto", help="Client mode: auto (the default) or legacy")
    asyncio.run(run_client(p.parse_args()))
else:
    app = streamable_app("h2tls-py-server")

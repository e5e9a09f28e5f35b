"""Python pieces of samples/gen/ecosystem/h2more.sh: the Python SDK (mcp) server as an ASGI app (for hypercorn and
granian), and the Python SDK client over httpx2 with HTTP/2 on, each with the library's defaults plus only what a
user adds to get TLS and h2 (or cleartext h2c with prior knowledge).

    hypercorn --certfile C --keyfile K --bind 127.0.0.1:N h2more_py:app             h2 over TLS (ALPN h2)
    granian --interface asgi --ssl-certificate C --ssl-keyfile K --host 127.0.0.1 --port N h2more_py:app
    granian --interface asgi --http 2 --host 127.0.0.1 --port N h2more_py:app        h2c (prior knowledge only)
    SSLKEYLOGFILE=K python h2more_py.py client --url https://127.0.0.1:N/mcp --ca C [--mode auto|legacy]
    python h2more_py.py client --url http://127.0.0.1:N/mcp --h2c [--mode auto|legacy]

The server is the h2tls group's (h2tls/h2tls_py.py, itself the sdks group's `pyserver`): MCPServer with the tools
add(a,b), echo(text) and slow_count(n) (n progress notifications, 0.1 s apart), `streamable_http_app` on /mcp with
its defaults (stateful, SSE replies, no event store). The client: `Client(streamable_http_client(url,
http_client=httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=C))), mode=...)` (mode "auto",
the default: server/discover first; "legacy": initialize); with --h2c the AsyncClient is `http1=False, http2=True`
over http:// (httpx2's prior-knowledge HTTP/2). Then tools/list, add(1,2), echo("hello"), slow_count(3) with a
progress callback, add(40,2), close; bounded by a 30 s timeout. `ssl.create_default_context` writes the TLS key log
to $SSLKEYLOGFILE (Python's own behaviour).
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

    timeout = httpx2.Timeout(30.0, read=300.0)
    if args.h2c:
        http = httpx2.AsyncClient(http1=False, http2=True, timeout=timeout)
    else:
        http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=args.ca), timeout=timeout)
    await over_httpx2(args.url, http, args.mode, CALLS, 30)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--ca", help="CA file to trust (the server's self-signed certificate); https only")
    c.add_argument("--h2c", action="store_true", help="cleartext HTTP/2 with prior knowledge (http1=False, http2=True)")
    c.add_argument("--mode", default="auto", help="Client mode: auto (the default) or legacy")
    asyncio.run(run_client(p.parse_args()))
else:
    app = streamable_app("h2more-py-server")

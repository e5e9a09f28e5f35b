"""Python pieces of samples/gen/ecosystem/proxies.sh: the backend MCP server (Python SDK, cleartext HTTP/1.1 under
uvicorn) and the client (Python SDK over httpx2 with HTTP/2 on, TLS to the proxy, key log through SSLKEYLOGFILE).

    python proxies_py.py server --port N
    SSLKEYLOGFILE=K python proxies_py.py client --url https://127.0.0.1:N/mcp --ca C [--hold S]

The server is the sdks group's `pyserver` (sdks/py/sdks_py.py) as an app: MCPServer with the tools add(a,b),
echo(text) and slow_count(n) (n progress notifications, 0.1 s apart), `streamable_http_app` on /mcp with its
defaults (stateful, SSE replies, no event store), under uvicorn on 127.0.0.1 (HTTP/1.1, the proxies' backend).
The client: `Client(streamable_http_client(url, http_client=httpx2.AsyncClient(http2=True,
verify=ssl.create_default_context(cafile=C))), mode="legacy")` (the classic initialize handshake, a stateful
session with its standalone GET stream), then tools/list, add(1,2), echo("hello"), slow_count(3) with a progress
callback, add(40,2); then it stays connected S seconds doing nothing (--hold, default 0: what an idle client does
to a proxy's timeouts), then one more add(2,3) if it held; with --slow W it then calls the TS backend's wait(W) (a
long tool call that sends nothing until its result; given up after W + 10 s) and add(2,3); then closes (DELETE).
Bounded: asyncio.timeout(30 + S + W).
httpx2 advertises the codings it can decode: gzip, deflate, plus br and zstd here (brotli, backports.zstd
installed in proxies/.venv). `ssl.create_default_context` writes the TLS key log to $SSLKEYLOGFILE.
"""

import argparse
import asyncio
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, HOST, call, log, over_httpx2, streamable_app  # noqa: E402  (../pysdk_tools.py)


def run_server(args) -> None:
    import uvicorn

    uvicorn.run(streamable_app("proxies-py-server"), host=HOST, port=args.port, log_level="warning", lifespan="on")


async def run_client(args) -> None:
    import httpx2

    async def then(client):
        if args.hold:
            log(f"holding {args.hold} s")
            await asyncio.sleep(args.hold)
            await call(client, "add", {"a": 2, "b": 3})
        if args.slow:
            try:
                await asyncio.wait_for(call(client, "wait", {"seconds": args.slow}), args.slow + 10)
            except Exception as e:  # noqa: BLE001 - what the proxy did to the long call is the point
                log("wait failed:", type(e).__name__, e)
            await call(client, "add", {"a": 2, "b": 3})

    http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=args.ca),
                              timeout=httpx2.Timeout(15.0, read=300.0))
    await over_httpx2(args.url, http, "legacy", CALLS, 30 + args.hold + args.slow, then)
    log("closed")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--ca", required=True, help="CA file to trust (the proxy's self-signed certificate)")
    c.add_argument("--hold", type=float, default=0.0, help="seconds to stay connected idle before the last call")
    c.add_argument("--slow", type=float, default=0.0,
                   help="then call wait(SLOW) (TS backend only; bounded by SLOW + 10 s) and add(2,3) again")
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(run_client(a))

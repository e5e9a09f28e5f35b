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
import ssl
import sys

HOST = "127.0.0.1"
CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def build_app():
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer("h2more-py-server", version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    return server.streamable_http_app(streamable_http_path="/mcp", host=HOST)


async def progress(progress, total, message):
    log("progress", progress, total, message)


async def run_client(args) -> None:
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    if args.h2c:
        http = httpx2.AsyncClient(http1=False, http2=True, timeout=timeout)
    else:
        http = httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=args.ca), timeout=timeout)
    async with http, asyncio.timeout(30):
        async with Client(streamable_http_client(args.url, http_client=http), mode=args.mode) as client:
            log("negotiated", client.protocol_version)
            tools = await client.list_tools()
            log("tools", [t.name for t in tools.tools])
            for name, arguments in CALLS:
                r = await client.call_tool(name, arguments, progress_callback=progress)
                log(name, arguments, "->", [c.text for c in r.content])
                await asyncio.sleep(0.1)


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
    app = build_app()

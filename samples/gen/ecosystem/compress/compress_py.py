"""Python pieces of samples/gen/ecosystem/compress.sh (server and client, all on 127.0.0.1, bounded).

    python compress_py.py server --port N [--json] [--mw gzip|brotli|compress]   Python SDK (mcp) MCPServer, stateful,
                                                                       under uvicorn, wrapped in a compression middleware
    python compress_py.py client --url U                                Python SDK client, mode="legacy" (initialize)

--mw gzip: Starlette's GZipMiddleware(minimum_size=100), its other defaults (compresslevel 9, the default excluded
content types). --mw brotli: brotli-asgi's BrotliMiddleware with its defaults (quality 4, minimum_size 400, gzip
fallback). --mw compress: starlette-compress's CompressMiddleware with its defaults (zstd, then br, then gzip by
Accept-Encoding; minimum_size 500; streaming types such as text/event-stream flushed per body message). Tools: add(a,b), echo(text), report(rows) (a plain-text table, about 55 bytes a row) and slow_count(n)
(n progress notifications, 0.1 s apart). The client: initialize, tools/list, add, echo, report(40), slow_count(3)
with a progress handler; close (DELETE).
"""

import argparse
import asyncio
import sys
import time

HOST = "127.0.0.1"
CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("report", {"rows": 40}), ("slow_count", {"n": 3})]
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def report_text(rows: int) -> str:
    return "\n".join(f"row {i:03d} | status ok | latency {(i * 7) % 97} ms | region eu-west" for i in range(1, rows + 1))


def run_server(args) -> None:
    import uvicorn
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer("compress-py-server", version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @server.tool()
    def report(rows: int) -> str:
        """A plain-text status table of `rows` lines."""
        return report_text(rows)

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    app = server.streamable_http_app(streamable_http_path="/mcp", json_response=args.json, host=HOST)
    if args.mw == "gzip":
        from starlette.middleware.gzip import GZipMiddleware

        app = GZipMiddleware(app, minimum_size=100)
    elif args.mw == "brotli":
        from brotli_asgi import BrotliMiddleware

        app = BrotliMiddleware(app)
    elif args.mw == "compress":
        from starlette_compress import CompressMiddleware

        app = CompressMiddleware(app)
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning", lifespan="on")


async def progress(progress, total, message):
    log("progress", progress, total, message)


async def run_client(args) -> None:
    from mcp.client.client import Client

    async with asyncio.timeout(30):
        async with Client(args.url, mode="legacy") as client:
            log("negotiated", client.protocol_version)
            tools = await client.list_tools()
            log("tools", [t.name for t in tools.tools])
            for name, arguments in CALLS:
                r = await client.call_tool(name, arguments, progress_callback=progress)
                texts = [c.text if len(c.text) <= 60 else f"{len(c.text)} chars" for c in r.content]
                log(name, arguments, "->", texts)
                await asyncio.sleep(0.1)
    log("done")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--json", action="store_true")
    s.add_argument("--mw", choices=("none", "gzip", "brotli", "compress"), default="gzip")
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    args = p.parse_args()
    if args.cmd == "server":
        run_server(args)
    else:
        asyncio.run(run_client(args))


if __name__ == "__main__":
    main()

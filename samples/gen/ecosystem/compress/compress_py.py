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
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import HOST, build_server, exercise, log  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)

CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("report", {"rows": 40}), ("slow_count", {"n": 3})]


def run_server(args) -> None:
    import uvicorn

    server = build_server("compress-py-server", with_report=True)
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


async def run_client(args) -> None:
    from mcp.client.client import Client

    async with asyncio.timeout(30):
        async with Client(args.url, mode="legacy") as client:
            await exercise(client, CALLS)
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

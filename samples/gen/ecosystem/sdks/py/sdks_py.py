"""Python pieces of samples/gen/ecosystem/sdks.sh (servers and clients, all on 127.0.0.1, bounded).

    python sdks_py.py pyserver   --port N [--stateless] [--json]   Python SDK (mcp) MCPServer under uvicorn
    python sdks_py.py fastserver --port N                          fastmcp FastMCP server (http transport)
    python sdks_py.py pyclient   --url U                           Python SDK client, mode="legacy" (initialize)
    python sdks_py.py fastclient --url U [--mode auto|legacy]      fastmcp Client (default mode "auto")
    python sdks_py.py rpcserver  --port N                          plain JSON-RPC 2.0 (jsonrpcserver + aiohttp)
    python sdks_py.py rpcclient  --url U                           plain JSON-RPC 2.0 client (urllib)

Every MCP server has the tools add(a,b), echo(text) and slow_count(n) (n progress notifications, 0.1 s apart).
Every MCP client: initialize (or discover), tools/list, add, echo, slow_count(3) with a progress handler, add; close.
"""


import argparse
import asyncio
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from pysdk_tools import build_server  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)

HOST = "127.0.0.1"
CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- MCP servers
def run_pyserver(args) -> None:
    import uvicorn

    server = build_server("sdks-py-server")
    app = server.streamable_http_app(streamable_http_path="/mcp", json_response=args.json,
                                     stateless_http=args.stateless, host=HOST)
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning", lifespan="on")


def run_fastserver(args) -> None:
    import uvicorn
    from fastmcp import Context, FastMCP

    mcp = FastMCP("sdks-fastmcp-server")

    @mcp.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @mcp.tool
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @mcp.tool
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    app = mcp.http_app(path="/mcp")
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning", lifespan="on")


# --------------------------------------------------------------------------- MCP clients
async def progress(progress, total, message):
    log("progress", progress, total, message)


async def run_pyclient(args) -> None:
    from mcp.client.client import Client

    async with asyncio.timeout(30):
        async with Client(args.url, mode="legacy") as client:
            log("negotiated", client.protocol_version)
            tools = await client.list_tools()
            log("tools", [t.name for t in tools.tools])
            for name, arguments in CALLS:
                r = await client.call_tool(name, arguments, progress_callback=progress)
                log(name, arguments, "->", [c.text for c in r.content])
                await asyncio.sleep(0.1)


async def run_fastclient(args) -> None:
    from fastmcp import Client

    async with asyncio.timeout(30):
        async with Client(args.url, mode=args.mode) as client:
            for attr in ("protocol_version", "negotiated_version"):
                if hasattr(client, attr):
                    log(attr, getattr(client, attr))
            tools = await client.list_tools()
            log("tools", [t.name for t in tools])
            for name, arguments in CALLS:
                r = await client.call_tool(name, arguments, progress_handler=progress)
                log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])
                await asyncio.sleep(0.1)


# --------------------------------------------------------------------------- plain JSON-RPC (not MCP)
def run_rpcserver(args) -> None:
    from aiohttp import web
    from jsonrpcserver import Result, Success, async_dispatch, method

    counter = {"n": 0}

    @method(name="calc.add")
    async def calc_add(a, b) -> Result:
        return Success(a + b)

    @method(name="counter.next")
    async def counter_next() -> Result:
        counter["n"] += 1
        return Success(counter["n"])

    @method(name="system.version")
    async def version() -> Result:
        return Success({"service": "sdks-jsonrpc", "version": "1.0"})

    async def handle(request):
        body = await async_dispatch(await request.text())
        if not body:
            return web.Response(status=204)
        return web.Response(text=body, content_type="application/json")

    app = web.Application()
    app.router.add_post("/rpc", handle)
    web.run_app(app, host=HOST, port=args.port, print=None)


def run_rpcclient(args) -> None:
    def post(obj):
        req = urllib.request.Request(args.url, data=json.dumps(obj).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read().decode()
            log(resp.status, text)

    for _ in range(3):
        post({"jsonrpc": "2.0", "id": 1, "method": "counter.next"})
    post({"jsonrpc": "2.0", "id": 2, "method": "calc.add", "params": {"a": 2, "b": 3}})
    post({"jsonrpc": "2.0", "id": 3, "method": "system.version"})
    post({"jsonrpc": "2.0", "id": 4, "method": "no.such.method"})
    post([{"jsonrpc": "2.0", "id": 5, "method": "counter.next"}, {"jsonrpc": "2.0", "method": "counter.next"}])
    post({"jsonrpc": "2.0", "method": "counter.next"})  # notification: no response body


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("pyserver", "fastserver", "rpcserver"):
        s = sub.add_parser(name)
        s.add_argument("--port", type=int, required=True)
        s.add_argument("--stateless", action="store_true")
        s.add_argument("--json", action="store_true")
    for name in ("pyclient", "fastclient", "rpcclient"):
        c = sub.add_parser(name)
        c.add_argument("--url", required=True)
        c.add_argument("--mode", default="auto")
    args = p.parse_args()
    fn = globals()["run_" + args.cmd]
    if asyncio.iscoroutinefunction(fn):
        asyncio.run(fn(args))
    else:
        fn(args)


if __name__ == "__main__":
    main()

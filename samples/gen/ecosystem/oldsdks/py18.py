"""The oldsdks group's Python side for the old Python SDKs (mcp 1.8.1 and 1.9.4, requirements-py18/19.txt; their 1.x API differs
from pysdk_tools.py's mcp 2.x): a FastMCP server with the shared tool names and behaviour (add, echo, slow_count)
and the stock client run against any server.

    python py18.py server --port N      FastMCP streamable_http_app (its defaults: /mcp, stateful, SSE replies,
                                        no event store) under uvicorn on 127.0.0.1
    python py18.py client --url URL     streamablehttp_client + ClientSession: initialize, tools/list, add(1,2),
                                        echo("hello"), slow_count(3) with a progressToken, add(40,2), close
"""

import argparse
import asyncio
import sys
import time

HOST = "127.0.0.1"
CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3}), ("add", {"a": 40, "b": 2})]
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def run_server(args) -> None:
    import uvicorn
    from mcp.server.fastmcp import Context, FastMCP

    from importlib.metadata import version

    mcp = FastMCP(f"oldsdks-py-{version('mcp')}-server")

    @mcp.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @mcp.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @mcp.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n, one progress notification per step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n)   # 1.8.1 has no message argument
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    uvicorn.run(mcp.streamable_http_app(), host=HOST, port=args.port, log_level="warning", lifespan="on")


async def client(url: str) -> None:
    from mcp import ClientSession, types
    from mcp.client.streamable_http import streamablehttp_client

    async def on_message(msg):
        if isinstance(msg, types.ServerNotification):
            log("notification", msg.root.method, msg.root.params)

    async with asyncio.timeout(30):
        async with streamablehttp_client(url) as (read, write, _sid):
            async with ClientSession(read, write, message_handler=on_message) as s:
                init = await s.initialize()
                log("negotiated", init.protocolVersion, init.serverInfo.name, init.serverInfo.version)
                tools = await s.list_tools()
                log("tools", [t.name for t in tools.tools])
                for token, (name, arguments) in enumerate(CALLS):
                    meta = types.RequestParams.Meta(progressToken=token) if name == "slow_count" else None
                    req = types.ClientRequest(types.CallToolRequest(
                        method="tools/call",
                        params=types.CallToolRequestParams(name=name, arguments=arguments, _meta=meta)))
                    r = await s.send_request(req, types.CallToolResult)
                    log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])
                    await asyncio.sleep(0.1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(client(a.url))


if __name__ == "__main__":
    main()

"""Python pieces of samples/gen/ecosystem/load2.sh, run in the sdks group's venv (../sdks/.venv: mcp 2.3.0,
fastmcp 4.1.6, uvicorn, pinned by ../sdks/requirements.txt).

    python load2_py.py server --port N [--store]
    python load2_py.py client --url URL [--name NAME]

server: FastMCP (PyPI `fastmcp` 4.1.6, jlowin/PrefectHQ; not the SDK's MCPServer) with add(a,b), echo(text),
slow_count(n) (n ctx.report_progress 0.1 s apart: notifications/progress when the request carries a progressToken),
`http_app(path="/mcp")` (Streamable HTTP, stateful, SSE replies: FastMCP's defaults) under uvicorn on 127.0.0.1.
--store passes `event_store=fastmcp.server.event_store.EventStore()` (FastMCP's own store on an in-memory
key_value MemoryStore, scoped per session; no retry_interval): resumability with Last-Event-ID.

client: the official Python SDK client, `Client(url, mode="legacy")` (the initialize handshake, a stateful session
with its standalone GET stream) over its default httpx2 client: tools/list, then six tools/call at once in one anyio
task group, started in this order: slow_count(20) with a progress callback (so a progressToken: about 2 s), add(1,2),
echo("fast 1"), slow_count(20), add(3,4), echo("fast 2") (the fast ones with no progress callback); then add(40,2)
and close (the SDK sends DELETE). With LOAD_START_AT (ms since the epoch) it first loads the SDK, then waits until
that time (at most 10 s). When the SDK raises, the exception is logged and the run ends (no retry, no new session).
Bounded: asyncio.timeout(30).
"""

import argparse
import asyncio
import os
import sys
import time

HOST = "127.0.0.1"
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def run_server(args) -> None:
    import uvicorn
    from fastmcp import Context, FastMCP

    mcp = FastMCP(f"load2-fastmcp-py-{args.port}", version="1.0.0")

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
        """Count to n, one progress notification per step, 0.1 s apart."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    kw = {}
    if args.store:
        from fastmcp.server.event_store import EventStore

        kw["event_store"] = EventStore()
    app = mcp.http_app(path="/mcp", **kw)
    log("fastmcp server on", f"{HOST}:{args.port}", "event store:", bool(args.store))
    uvicorn.run(app, host=HOST, port=args.port, log_level="info", lifespan="on")


CALLS = [("slow_count", {"n": 20}), ("add", {"a": 1, "b": 2}), ("echo", {"text": "fast 1"}),
         ("slow_count", {"n": 20}), ("add", {"a": 3, "b": 4}), ("echo", {"text": "fast 2"})]


async def call(client, name, arguments, tag):
    async def progress(p, total, message):
        log(tag, name, "progress", p, total, message)

    try:
        kw = {"progress_callback": progress} if name == "slow_count" else {}
        r = await client.call_tool(name, arguments, **kw)
        log(tag, name, arguments, "->", [getattr(c, "text", c) for c in r.content], "error" if r.is_error else "")
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
        log(tag, name, arguments, "the SDK raised:", type(e).__name__, str(e)[:200])


async def run_client(args) -> None:
    import anyio
    from mcp.client.client import Client

    if os.environ.get("LOAD_START_AT"):
        wait = min(10.0, max(0.0, int(os.environ["LOAD_START_AT"]) / 1000 - time.time()))
        log("waiting", round(wait, 3), "s for the common start")
        await asyncio.sleep(wait)
    try:
        async with asyncio.timeout(30):
            async with Client(args.url, mode="legacy") as client:
                log("negotiated", client.protocol_version)
                tools = await client.list_tools()
                log("tools", [t.name for t in tools.tools])
                async with anyio.create_task_group() as tg:
                    for i, (name, arguments) in enumerate(CALLS):
                        tg.start_soon(call, client, name, arguments, f"#{i + 1}")
                log("all", len(CALLS), "calls settled")
                await call(client, "add", {"a": 40, "b": 2}, "#7")
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point; the run ends here
        log("the SDK raised:", type(e).__name__, str(e)[:300])
        log("run ended after the SDK raised (no retry, no new session)")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--store", action="store_true")
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--name", default="1")
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(run_client(a))

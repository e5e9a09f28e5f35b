"""Python pieces of samples/gen/ecosystem/load.sh: the Python SDK (mcp 2.3.0) server and the Python SDK client runs.

    python load_py.py server --port N [--name NAME] [--idle-timeout S]
    python load_py.py client parallel --url URL
    python load_py.py client session --url URL
    python load_py.py client expiry --url URL --idle S

The server: the other groups' Python SDK app (../pysdk_tools.py build_server: MCPServer with add(a,b), echo(text),
slow_count(n): n progress notifications 0.1 s apart), `streamable_http_app` on /mcp with its defaults (stateful, SSE
replies, no event store, the SDK's own StreamableHTTPSessionManager and its default session limits), under uvicorn
on 127.0.0.1 (HTTP/1.1). --idle-timeout S passes `session_idle_timeout=S` (the SDK's own option, 1800 s by default:
a session with no HTTP request in flight and no open GET stream for S seconds is ended, its id then answers 404).

The client: `Client(url, mode="legacy")` (the classic initialize handshake: a stateful session with its standalone
GET stream), plain HTTP/1.1 over the SDK's default httpx2 client (its own connection pool), then
  parallel  tools/list, then nine tools/call at once in one anyio task group (add(i,10*i) for i=1..4, echo("call i")
            for i=1..4, and slow_count(3) with a progress callback, started in that order, slow_count fifth), then
            close (the SDK sends DELETE)
  session   tools/list, add(1,2), echo("hello"), slow_count(3) with a progress callback, add(40,2), 0.1 s apart
            (../pysdk_tools.py `exercise`), close
  expiry    tools/list, add(1,2), then S seconds idle (the session stays open: its GET stream too), then add(40,2)
            and echo("again"), close
With LOAD_START_AT (ms since the epoch) in the environment, the client first loads the SDK, then waits until that time
(at most 10 s) before it connects: load.sh starts several clients together that way, so their sessions overlap although
Python needs about a second to import the SDK and Node a tenth of that. When the SDK raises, the exception is logged
and the run ends (parallel, session) or goes on to the next step (expiry): no retry, no new session (the SDK makes none
by itself). Bounded: asyncio.timeout(30).
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, HOST, build_server, call, exercise, log, log_raised, progress  # noqa: E402  (../pysdk_tools.py)


def run_server(args) -> None:
    import uvicorn

    kw = {} if args.idle_timeout is None else {"session_idle_timeout": args.idle_timeout}
    app = build_server(args.name or f"load-py-server-{args.port}").streamable_http_app(
        streamable_http_path="/mcp", host=HOST, **kw)
    uvicorn.run(app, host=HOST, port=args.port, log_level="info", lifespan="on")


PARALLEL = [("add", {"a": i, "b": 10 * i}) for i in range(1, 5)] + [("slow_count", {"n": 3})] + [
    ("echo", {"text": f"call {i}"}) for i in range(1, 5)]


async def step(label, coro):
    try:
        r = await coro
        log(label, "->", [getattr(c, "text", c) for c in r.content], "error" if r.is_error else "")
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
        log(label, "the SDK raised:", type(e).__name__, str(e)[:200])


async def run_client(args) -> None:
    import time

    import anyio
    from mcp.client.client import Client

    if os.environ.get("LOAD_START_AT"):
        wait = min(10.0, max(0.0, int(os.environ["LOAD_START_AT"]) / 1000 - time.time()))
        log("waiting", round(wait, 3), "s for the common start")
        await asyncio.sleep(wait)
    try:
        async with asyncio.timeout(30):
            async with Client(args.url, mode="legacy") as client:
                if args.what == "session":
                    await exercise(client, CALLS)
                elif args.what == "parallel":
                    log("negotiated", client.protocol_version)
                    tools = await client.list_tools()
                    log("tools", [t.name for t in tools.tools])
                    async with anyio.create_task_group() as tg:
                        for name, arguments in PARALLEL:
                            tg.start_soon(call, client, name, arguments)
                    log("all", len(PARALLEL), "calls answered")
                else:
                    log("negotiated", client.protocol_version)
                    tools = await client.list_tools()
                    log("tools", [t.name for t in tools.tools])
                    await step("add(1,2)", client.call_tool("add", {"a": 1, "b": 2}))
                    log("idle", args.idle, "s")
                    await asyncio.sleep(args.idle)
                    await step("add(40,2)", client.call_tool("add", {"a": 40, "b": 2}))
                    await asyncio.sleep(0.1)
                    await step("echo(again)", client.call_tool("echo", {"text": "again"}))
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point; the run ends here
        log_raised(e)
        log("run ended after the SDK raised (no retry, no new session)")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--name")
    s.add_argument("--idle-timeout", type=float)
    c = sub.add_parser("client")
    c.add_argument("what", choices=("parallel", "session", "expiry"))
    c.add_argument("--url", required=True)
    c.add_argument("--idle", type=float, default=4.0)
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(run_client(a))

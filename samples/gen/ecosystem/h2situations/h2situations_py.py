"""Python pieces of samples/gen/ecosystem/h2situations.sh: the Python SDK (mcp 2.3.0) server as an ASGI app (served by
hypercorn, granian or uvicorn), and the Python SDK client over httpx2 with cleartext HTTP/2 (h2c, prior knowledge:
`httpx2.AsyncClient(http1=False, http2=True)`), each with the library's defaults.

    hypercorn --bind 127.0.0.1:N h2situations_py.py:app                   h2c (hypercorn takes the preface)
    granian --interface asgi --http 2 --host 127.0.0.1 --port N h2situations_py:app
    python h2situations_py.py client --url http://127.0.0.1:N/mcp --plan PLAN [--mode legacy|auto]

The server is the shared tool set (../pysdk_tools.py build_server: add, echo, slow_count(n) with n progress
notifications 0.1 s apart, and report(rows), a plain-text table of about 55 bytes a row), `streamable_http_app` on
/mcp with its defaults (stateful, SSE replies, no event store). The client is `Client(streamable_http_client(url,
http_client=httpx2.AsyncClient(http1=False, http2=True)), mode=...)`. Plans (each bounded; every call's outcome is
logged, a call that raises is logged and the plan goes on, as an application that catches tool errors does):
  cancel     tools/list, add(1,2), slow_count(30) whose task is cancelled (an anyio cancel scope the progress
             callback cancels at the 2nd notification), add(40,2), close
  slow       tools/list, add(1,2), slow_count(30) (the script stops or kills the server meanwhile), add(40,2), close
  restart    tools/list, add(1,2), a 6 s pause (the script restarts the server), add x3, close
  two        two sessions (two Client objects) over ONE httpx2 client, run concurrently: each tools/list, add,
             slow_count(3), add, close
  large      tools/list, report(4000) (about 215 KB of text in one result, twice that in the event: the text and its
             structuredContent copy), echo(that same text) (a 215 KB request body: the server's flow-control window
             is the client's to respect), add(40,2), close
"""

import argparse
import asyncio
import os
import sys

import anyio

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import HOST, build_server, log, log_raised, progress, report_text  # noqa: E402  (samples/gen/ecosystem)


async def call(client, name, arguments, tag="", **kw):
    try:
        r = await client.call_tool(name, arguments, progress_callback=kw.pop("progress_callback", progress), **kw)
        texts = [getattr(c, "text", c) for c in r.content]
        log(tag, name, arguments, "->",
            [t if not isinstance(t, str) or len(t) <= 60 else f"{len(t)} chars" for t in texts])
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the record
        log(tag, name, arguments, "raised")
        log_raised(e)


async def cancelled_call(client):
    """slow_count(30) in a cancel scope the progress callback cancels at the 2nd notification (the task is cancelled,
    as a UI's stop button or an agent's own timeout does)."""
    scope = anyio.CancelScope()

    async def on_progress(p, total, message):
        log("progress", p, total, message)
        if p >= 2:
            log("cancelling the slow_count task")
            scope.cancel()

    with scope:
        await call(client, "slow_count", {"n": 30}, progress_callback=on_progress)
    log("slow_count task cancelled:", scope.cancelled_caught)


async def plan_body(client, plan, tag=""):
    log(tag, "negotiated", client.protocol_version)
    try:
        tools = await client.list_tools()
        log(tag, "tools", [t.name for t in tools.tools])
    except Exception as e:  # noqa: BLE001
        log_raised(e)
    if plan == "large":
        await call(client, "report", {"rows": 4000}, tag)
        await asyncio.sleep(0.1)
        await call(client, "echo", {"text": report_text(4000)}, tag)
    else:
        await call(client, "add", {"a": 1, "b": 2}, tag)
    await asyncio.sleep(0.1)
    if plan == "cancel":
        await cancelled_call(client)
    elif plan == "slow":
        await call(client, "slow_count", {"n": 30}, tag)
    elif plan == "restart":
        log("pause 6 s")
        await asyncio.sleep(6)
        for _ in range(2):
            await call(client, "add", {"a": 1, "b": 2}, tag)
            await asyncio.sleep(0.1)
    elif plan == "two":
        await call(client, "slow_count", {"n": 3}, tag)
    await asyncio.sleep(0.1)
    await call(client, "add", {"a": 40, "b": 2}, tag)


async def run_client(args) -> None:
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(http1=False, http2=True, timeout=httpx2.Timeout(30.0, read=300.0))

    async def one(tag):
        async with Client(streamable_http_client(args.url, http_client=http), mode=args.mode) as client:
            await plan_body(client, args.plan, tag)

    async def body():
        async with http:
            if args.plan == "two":
                await asyncio.gather(one("A"), one("B"))
            else:
                await one("")

    try:
        async with asyncio.timeout(40):
            await body()
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point; the run ends here
        log_raised(e)
        log("run ended after the SDK raised")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--mode", default="legacy", help="Client mode: legacy (initialize) or auto (2026-07-28 first)")
    c.add_argument("--plan", required=True, choices=["cancel", "slow", "restart", "two", "large"])
    asyncio.run(run_client(p.parse_args()))
else:
    app = build_server("h2situations-py-server", with_report=True).streamable_http_app(
        streamable_http_path="/mcp", host=HOST)

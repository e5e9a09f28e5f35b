"""Python SDK (mcp 2.3.0, the sdks group's venv) client of the gateways8 captures: one bounded Streamable HTTP
session to mcp-router's front (/mcp), calling the router's own tools.

    python gw8_client.py URL [--instance NAME] [--tag T] [--pause --ready F --go G] [--timeout S]

`Client(streamable_http_client(URL), mode="legacy")` (the classic initialize handshake). Steps: tools/list,
mcp.router.list, mcp.router.use(NAME), mcp.router.call(NAME, add, {a:1,b:2}), mcp.router.call(NAME, echo,
{text:"hello T"}), mcp.router.call(NAME, nope) (an unknown upstream tool), mcp.router.call(NAME, add, {a:"x",b:2})
(the upstream's validation error), mcp.router.call(NAME, add, {a:40,b:2}). --pause: before the first
mcp.router.call the client creates file F and waits (at most 20 s) for file G (the script restarts the upstream
meanwhile). Every step is bounded (10 s); a step that raises is logged and the run goes on; the run ends after
--timeout s (default 50).
"""

import argparse
import asyncio
import os
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def step(what, coro):
    try:
        r = await asyncio.wait_for(coro, 10)
        log(what, "->", repr(r)[:300])
    except BaseException as e:  # noqa: BLE001 - a failing step is logged, the run goes on
        log(what, "raised", type(e).__name__, str(e)[:300])


async def session(a):
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    async with Client(streamable_http_client(a.url), mode="legacy") as c:
        log("initialized")
        await step("tools/list", c.list_tools())
        await step("mcp.router.list", c.call_tool("mcp.router.list", {}))
        await step("mcp.router.use", c.call_tool("mcp.router.use", {"instance_name": a.instance}))
        if a.pause:
            open(a.ready, "w").close()
            end = time.monotonic() + 20
            while not os.path.exists(a.go) and time.monotonic() < end:
                await asyncio.sleep(0.05)
        calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": f"hello {a.tag}"}), ("nope", {}),
                 ("add", {"a": "x", "b": 2}), ("add", {"a": 40, "b": 2})]
        for tool, args in calls:
            await step(f"call {tool} {args}", c.call_tool(
                "mcp.router.call", {"instance_name": a.instance, "tool_name": tool, "arguments": args}))
    log("closed")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("--instance", default="py")
    p.add_argument("--tag", default="A")
    p.add_argument("--pause", action="store_true")
    p.add_argument("--ready")
    p.add_argument("--go")
    p.add_argument("--timeout", type=float, default=50.0)
    a = p.parse_args()
    try:
        asyncio.run(asyncio.wait_for(session(a), a.timeout))
    except BaseException as e:  # noqa: BLE001
        log("session raised", type(e).__name__, str(e)[:300])


if __name__ == "__main__":
    main()

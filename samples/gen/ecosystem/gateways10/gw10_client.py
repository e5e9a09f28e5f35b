"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gateways10 captures: one bounded session
through a gateway.

    python gw10_client.py URL [--mode legacy|2026-07-28] [--token T] [--prefix P] [--plan plain|pause|crash]
                          [--ready F] [--go G]

`Client(streamable_http_client(URL, http_client=...), mode=MODE)` over the SDK's own httpx2 client
(`create_mcp_http_client`, with `authorization: Bearer T` when --token is given). mode legacy (default) is the
classic initialize handshake (a stateful Streamable HTTP session, standalone GET stream, DELETE at close); mode
2026-07-28 pins the SDK's newest era (server/discover, no initialize, no session). --prefix P goes before every tool name (a gateway's
namespace). Plans:
  plain  tools/list, add(1,2), slow_count(3) with a progress callback (so a progressToken), fail("boom"), add(40,2)
  pause  tools/list, add(1,2), then creates F and waits (at most 20 s) for G (the script restarts the upstream
         meanwhile), then add(2,3), add(5,5), add(40,2)
  crash  tools/list, add(1,2), creates F (the script SIGKILLs the upstream about 1.5 s later and starts a new one),
         slow_count(40) with a progress callback (about 4 s), 2 s idle, add(2,3), add(5,5), add(40,2)
Every request times out after 10 s, the run after 45 s; a step that raises is logged and the run goes on.
"""

import argparse
import asyncio
import os
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def log_raised(name, e):
    def leaves(x):
        return [y for z in x.exceptions for y in leaves(z)] if isinstance(x, BaseExceptionGroup) else [x]

    for x in leaves(e):
        log(name, "raised", type(x).__name__, str(x)[:240])


async def wait_file(path, limit=20.0):
    end = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < end:
        await asyncio.sleep(0.05)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"authorization": "Bearer " + a.token} if a.token else {}
    http = create_mcp_http_client(headers=headers)
    seen = []

    async def progress(p, total, message):
        seen.append(p)

    if a.plan == "plain":
        steps = [("tools/list", None), ("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("fail", {"reason": "boom"}),
                 ("add", {"a": 40, "b": 2})]
    elif a.plan == "pause":
        steps = [("tools/list", None), ("add", {"a": 1, "b": 2}), ("PAUSE", None), ("add", {"a": 2, "b": 3}),
                 ("add", {"a": 5, "b": 5}), ("add", {"a": 40, "b": 2})]
    else:
        steps = [("tools/list", None), ("add", {"a": 1, "b": 2}), ("READY", None), ("slow_count", {"n": 40}),
                 ("SLEEP", 2), ("add", {"a": 2, "b": 3}), ("add", {"a": 5, "b": 5}), ("add", {"a": 40, "b": 2})]

    async with http, Client(streamable_http_client(a.url, http_client=http), mode=a.mode,
                            read_timeout_seconds=10) as client:
        log("negotiated", client.protocol_version)
        for name, args in steps:
            if name == "PAUSE":
                open(a.ready, "w").close()
                log("paused")
                await wait_file(a.go)
                log("going on")
                continue
            if name == "READY":
                open(a.ready, "w").close()
                continue
            if name == "SLEEP":
                await asyncio.sleep(args)
                continue
            try:
                if name == "tools/list":
                    r = await client.list_tools()
                    log("tools", [t.name for t in r.tools])
                else:
                    cb = progress if name == "slow_count" else None
                    r = await client.call_tool(a.prefix + name, args, progress_callback=cb)
                    log(name, args, "->", "isError" if r.is_error else "ok", [getattr(c, "text", c) for c in r.content])
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the record; the run goes on
                log_raised(name, e)
            await asyncio.sleep(0.1)
        log("progress notifications seen", len(seen))


async def main(a):
    try:
        async with asyncio.timeout(45):
            await session(a)
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised("run", e)
        log("run ended")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--mode", default="legacy", choices=["legacy", "2026-07-28"])
    p.add_argument("--token")
    p.add_argument("--prefix", default="")
    p.add_argument("--plan", default="plain", choices=["plain", "pause", "crash"])
    p.add_argument("--ready")
    p.add_argument("--go")
    asyncio.run(main(p.parse_args()))

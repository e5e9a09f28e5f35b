"""Python SDK (mcp 2.3.0) Streamable HTTP client for the gateways2 ecosystem captures.

The same standard session as ../gateways/gw_client.py (imported from there: initialize, initialized,
tools/list, add(1,2), echo, [slow with a progress callback], add(40,2), DELETE on close), with extra request
headers (a gateway's bearer token) and the tool names the gateway exposes (ContextForge prefixes them with
the gateway's slug, LiteLLM with the server name).

    python gw2_client.py --url U [--bearer-file F] [--prefix P] [--slow STEPS,DELAY] [--tag T]
                         [--ready-file F --go-file G] [--timeout S]

Bounded: an overall asyncio timeout (--timeout, default 40 s); the ready/go files let two sessions start
their calls at the same moment.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gateways"))


def log(tag, *a):
    print(f"[{tag} {time.strftime('%H:%M:%S')}]", *a, file=sys.stderr, flush=True)


async def wait_file(path, limit=30.0):
    t0 = time.monotonic()
    while not os.path.exists(path):
        if time.monotonic() - t0 > limit:
            raise TimeoutError(path)
        await asyncio.sleep(0.05)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {}
    if a.bearer_file:
        headers["authorization"] = "Bearer " + open(a.bearer_file).read().strip()
    http = create_mcp_http_client(headers=headers)
    async with http, Client(streamable_http_client(a.url, http_client=http), mode="legacy") as client:
        log(a.tag, "negotiated", client.protocol_version)
        if a.ready_file:
            open(a.ready_file, "w").close()
            await wait_file(a.go_file)
        tools = await client.list_tools()
        log(a.tag, "tools", [t.name for t in tools.tools])
        calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": f"hello from {a.tag}"})]
        if a.slow:
            steps, delay = a.slow.split(",")
            calls.append(("slow", {"steps": int(steps), "delay": float(delay)}))
        calls.append(("add", {"a": 40, "b": 2}))
        for name, arguments in calls:
            progress = []

            async def on_progress(p, total, message, _progress=progress):
                _progress.append(p)
                log(a.tag, "progress", p, total, message)

            try:
                result = await client.call_tool(a.prefix + name, arguments, progress_callback=on_progress)
                log(a.tag, name, arguments, "->", [getattr(c, "text", c) for c in result.content],
                    "error" if result.is_error else "", f"progress={progress}")
            except Exception as e:  # a gateway error is part of what we capture; go on with the next call
                log(a.tag, name, arguments, "failed:", repr(e)[:200])
            await asyncio.sleep(a.pause)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--bearer-file")
    p.add_argument("--prefix", default="")
    p.add_argument("--slow", default="")
    p.add_argument("--tag", default="client")
    p.add_argument("--pause", type=float, default=0.2)
    p.add_argument("--ready-file")
    p.add_argument("--go-file")
    p.add_argument("--timeout", type=float, default=40.0)
    a = p.parse_args()

    async def bounded():
        async with asyncio.timeout(a.timeout):
            await session(a)

    asyncio.run(bounded())
    log(a.tag, "done")


if __name__ == "__main__":
    main()

"""Python SDK (mcp 2.3.0, jsservers10/.venv from requirements.txt) client of the jsservers10 captures: one bounded Streamable HTTP
session.

    python j10_client.py URL STEPS.json [--tag T] [--mode legacy|auto] [--sse] [--pause-at N --ready F --go G]
                        [--timeout S]

`Client(streamable_http_client(URL), mode=...)`: `legacy` (default) is the classic initialize handshake; `auto` is the
SDK's default (server/discover first, 2026-07-28 stateless where the server answers it). --sse (URL .../sse): the
SDK's legacy HTTP+SSE client `sse_client(URL)` instead (GET the stream, POST to the URL of its `endpoint` event). Steps: tools/list, then
every call of STEPS (a JSON list of [tool, arguments]); closing the client sends DELETE when it holds a session id.
--pause-at N: before call N (0-based) the client creates file F and waits (at most 20 s) for file G: the script
restarts the server meanwhile. Every step is bounded (10 s read timeout); a step that raises is logged and the run
goes on; the whole run ends after --timeout s (default 50). MCP_BEARER (environment, optional): sent as
`Authorization: Bearer <value>` on every request (the SDK's own httpx client factory with that header).
"""

import argparse
import asyncio
import json
import os
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def wait_file(path, limit=20.0):
    end = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < end:
        await asyncio.sleep(0.05)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client

    with open(a.steps) as f:
        steps = json.load(f)
    from mcp.shared._httpx_utils import create_mcp_http_client

    bearer = os.environ.get("MCP_BEARER")
    headers = {"Authorization": f"Bearer {bearer}"} if bearer else None
    if a.sse:
        transport = sse_client(a.url, headers=headers)
    else:
        transport = streamable_http_client(a.url, http_client=create_mcp_http_client(headers=headers) if headers else None)
    async with Client(transport, mode=a.mode, read_timeout_seconds=10) as client:
        log(a.tag, "negotiated", client.protocol_version)
        try:
            r = await client.list_tools()
            log(a.tag, "tools", [t.name for t in r.tools])
        except Exception as e:  # noqa: BLE001
            log(a.tag, "tools/list raised", type(e).__name__, str(e)[:200])
        for i, (name, args) in enumerate(steps):
            if a.pause_at is not None and i == a.pause_at:
                open(a.ready, "w").close()
                log(a.tag, "paused before call", i)
                await wait_file(a.go)
            try:
                r = await client.call_tool(name, args)
                log(a.tag, name, args, "->", "isError" if r.is_error else "ok",
                    [str(getattr(c, "text", c))[:120] for c in r.content])
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the record; the run goes on
                log(a.tag, name, "raised", type(e).__name__, str(e)[:200])
            await asyncio.sleep(0.1)


async def main(a):
    try:
        async with asyncio.timeout(a.timeout):
            await session(a)
        log(a.tag, "closed")
    except BaseException as e:  # noqa: BLE001
        log(a.tag, "run ended:", type(e).__name__, str(e)[:300])


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("steps")
    p.add_argument("--tag", default="A")
    p.add_argument("--mode", default="legacy")
    p.add_argument("--sse", action="store_true")
    p.add_argument("--pause-at", type=int)
    p.add_argument("--ready")
    p.add_argument("--go")
    p.add_argument("--timeout", type=float, default=50.0)
    asyncio.run(main(p.parse_args()))

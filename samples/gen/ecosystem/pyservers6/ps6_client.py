"""Python SDK (mcp 2.3.0, pyservers6/.venv-client) client of the pyservers6 captures: one bounded session.

    python ps6_client.py URL STEPS.json [--mode legacy|auto] [--sse] [--timeout S]

`Client(streamable_http_client(URL), mode=...)`: `legacy` (default) is the classic initialize handshake; `auto` is
the SDK's default (server/discover first, 2026-07-28 stateless where the server answers it). --sse: the SDK's legacy
HTTP+SSE client `sse_client(URL)` (GET the stream, POST to the URL of its `endpoint` event). Steps: tools/list, then
every call of STEPS (a JSON list of [tool, arguments]); closing the client sends DELETE when it holds a session id.
Every step is bounded (10 s read timeout); a step that raises is logged and the run goes on; the whole run ends
after --timeout s (default 50).
"""

import argparse
import asyncio
import json
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client

    with open(a.steps) as f:
        steps = json.load(f)
    transport = sse_client(a.url) if a.sse else streamable_http_client(a.url)
    async with Client(transport, mode=a.mode, read_timeout_seconds=10) as client:
        log("negotiated", client.protocol_version)
        try:
            r = await client.list_tools()
            log("tools", len(r.tools), [t.name for t in r.tools][:12])
        except Exception as e:  # noqa: BLE001
            log("tools/list raised", type(e).__name__, str(e)[:200])
        for name, args in steps:
            try:
                r = await client.call_tool(name, args)
                log(name, args, "->", "isError" if r.is_error else "ok",
                    [str(getattr(c, "text", c))[:120] for c in r.content])
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the record; the run goes on
                log(name, "raised", type(e).__name__, str(e)[:200])
            await asyncio.sleep(0.1)


async def main(a):
    try:
        async with asyncio.timeout(a.timeout):
            await session(a)
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log("run ended:", type(e).__name__, str(e)[:300])
        for sub in getattr(e, "exceptions", ()):
            log("  sub-exception:", type(sub).__name__, str(sub)[:300])
            for sub2 in getattr(sub, "exceptions", ()):
                log("    sub-exception:", type(sub2).__name__, str(sub2)[:300])


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("steps")
    p.add_argument("--mode", default="legacy")
    p.add_argument("--sse", action="store_true")
    p.add_argument("--timeout", type=float, default=50.0)
    asyncio.run(main(p.parse_args()))

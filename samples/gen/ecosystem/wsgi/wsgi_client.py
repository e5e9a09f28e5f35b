"""Python SDK (mcp 2.3.0, this folder's venv) client of the wsgi captures: one bounded Streamable HTTP session.

    python wsgi_client.py URL [--tag T] [--count N] [--idle S] [--timeout S]

`Client(streamable_http_client(URL, http_client=...), mode="legacy")` (the classic initialize handshake, a stateful
session; the SDK opens the standalone GET stream after it) over the SDK's httpx client, 15 s read timeout. Steps:
tools/list, add(1,2), echo("hello T"), slow_count(N) with a progress callback (a progressToken; N progress
notifications 0.1 s apart, default 30: 3 s of streaming, so a buffering hop shows on the wire), the unknown tool
`nope`, add(a="x", b=2) (invalid arguments), [--idle S: the session sits idle S seconds, only the GET stream open],
add(40,2); closing the client sends DELETE. A step that raises is logged and the run goes on; the whole run ends after
--timeout s (default 55).
"""

import argparse
import asyncio
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def session(a):
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    http = create_mcp_http_client()
    seen = []

    async def progress(p, total, message):
        seen.append(p)
        log(a.tag, "progress", p, total, message)

    steps = [("tools/list", None, None), ("add", {"a": 1, "b": 2}, None), ("echo", {"text": f"hello {a.tag}"}, None),
             ("slow_count", {"n": a.count}, progress), ("nope", {}, None), ("add", {"a": "x", "b": 2}, None),
             ("idle", None, None), ("add", {"a": 40, "b": 2}, None)]

    async with http, Client(streamable_http_client(a.url, http_client=http), mode="legacy",
                            read_timeout_seconds=15) as client:
        log(a.tag, "negotiated", client.protocol_version)
        for name, args, cb in steps:
            try:
                if name == "tools/list":
                    r = await client.list_tools()
                    log(a.tag, "tools", [t.name for t in r.tools])
                elif name == "idle":
                    if a.idle:
                        log(a.tag, "idle", a.idle, "s")
                        await asyncio.sleep(a.idle)
                    continue
                else:
                    r = await client.call_tool(name, args, progress_callback=cb)
                    log(a.tag, name, args, "->", "isError" if r.is_error else "ok",
                        [getattr(c, "text", c) for c in r.content])
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the record; the run goes on
                log(a.tag, name, "raised", type(e).__name__, str(e)[:200])
            await asyncio.sleep(0.1)
        log(a.tag, "progress notifications seen", len(seen))


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
    p.add_argument("--tag", default="A")
    p.add_argument("--count", type=int, default=30)
    p.add_argument("--idle", type=float, default=0)
    p.add_argument("--timeout", type=float, default=55.0)
    asyncio.run(main(p.parse_args()))

"""Python SDK (mcp 2.3.0, the sdks group's venv) client of the gateways7 captures: one bounded Streamable HTTP session
through a gateway, with a bearer token.

    python gw7_client.py URL [--token-env VAR] [--tag T] [--prefix P] [--errors] [--pause-at STEP --ready F --go G]
                         [--timeout S]

`Client(streamable_http_client(URL, http_client=...), mode="legacy")` (the classic initialize handshake, a stateful
session) over the SDK's httpx2 client with `authorization: Bearer $VAR`. Steps: tools/list, add(1,2), echo("hello T"),
slow_count(3) with a progress callback (a progressToken), [--errors: echo("secret T") (refused by the gateway's
policy), the unknown tool `nope`, add(a="x", b=2) (invalid arguments, the upstream's error)], add(40,2); closing the
client sends DELETE. --prefix P is put before every tool name (an aggregator's namespace, e.g. `py__`).
--pause-at STEP: before that step the client creates file F and waits (at most 20 s) for file G: the script restarts
the upstream or starts a second client meanwhile. Every step is bounded (10 s read timeout); a step that raises is
logged and the run goes on; the whole run ends after --timeout s (default 50).
"""

import argparse
import asyncio
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
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"authorization": "Bearer " + os.environ[a.token_env]} if a.token_env else {}
    http = create_mcp_http_client(headers=headers)
    seen = []

    async def progress(p, total, message):
        seen.append(p)

    steps = [("tools/list", None, None), ("add", {"a": 1, "b": 2}, None), ("echo", {"text": f"hello {a.tag}"}, None),
             ("slow_count", {"n": 3}, progress)]
    if a.errors:
        steps += [("echo", {"text": f"secret {a.tag}"}, None), ("nope", {}, None), ("add", {"a": "x", "b": 2}, None)]
    steps += [("add", {"a": 40, "b": 2}, None)]

    async with http, Client(streamable_http_client(a.url, http_client=http), mode="legacy",
                            read_timeout_seconds=10) as client:
        log(a.tag, "negotiated", client.protocol_version)
        for i, (name, args, cb) in enumerate(steps):
            if a.pause_at is not None and i == a.pause_at:
                open(a.ready, "w").close()
                log(a.tag, "paused before step", i)
                await wait_file(a.go)
            try:
                if name == "tools/list":
                    r = await client.list_tools()
                    log(a.tag, "tools", [t.name for t in r.tools])
                else:
                    r = await client.call_tool(a.prefix + name, args, progress_callback=cb)
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
    p.add_argument("--token-env")
    p.add_argument("--tag", default="A")
    p.add_argument("--prefix", default="")
    p.add_argument("--errors", action="store_true")
    p.add_argument("--pause-at", type=int)
    p.add_argument("--ready")
    p.add_argument("--go")
    p.add_argument("--timeout", type=float, default=50.0)
    asyncio.run(main(p.parse_args()))

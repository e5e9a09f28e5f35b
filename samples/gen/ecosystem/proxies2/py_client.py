"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the proxies2 group, through a reverse proxy.

    python py_client.py URL [--sse] [--slow N] [--hold S]

Streamable HTTP (the default; URL .../mcp): `Client(URL, mode="legacy", read_timeout_seconds=10)` over the SDK's
default httpx2 client (HTTP/1.1), as ../relays/py_client.py: the classic initialize handshake, a stateful session
with its standalone GET stream. --sse (URL .../sse): `Client(sse_client(URL), mode="legacy", ...)`, the legacy
HTTP+SSE transport (GET URL, the `endpoint` event, every message POSTed there), as ../gradio/py_client.py. Then
tools/list, add(1,2), echo("hello"), slow_count(N) with a progress callback (so a progressToken: N
notifications/progress 0.1 s apart; default 60, about 6 s), S seconds idle with the session's streams open (--hold,
default 0), add(40,2), and close (a Streamable HTTP session sends DELETE). Each request times out after 10 s, the whole
run after 30 + N/10 + S s (../pysdk_tools.py `bounded_run`): when the SDK raises, the exception is logged and the run
ends there: no retry, no new session.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)


async def exercise(client_cm, slow: int, hold: float) -> None:
    seen = []

    async def progress(p, total, message):
        seen.append(p)
        if len(seen) in (1, slow):
            log("progress", p, total, message)

    async def call(name, arguments, cb=None):
        r = await client.call_tool(name, arguments, progress_callback=cb)
        log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])
        await asyncio.sleep(0.1)

    async with client_cm as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        await call("add", {"a": 1, "b": 2})
        await call("echo", {"text": "hello"})
        await call("slow_count", {"n": slow}, progress)
        log("progress notifications seen", len(seen))
        if hold:
            log(f"holding {hold} s")
            await asyncio.sleep(hold)
        await call("add", {"a": 40, "b": 2})


async def main(a) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    transport = sse_client(a.url) if a.sse else a.url
    await bounded_run(exercise(Client(transport, mode="legacy", read_timeout_seconds=10), a.slow, a.hold),
                      30 + a.slow / 10 + a.hold)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--sse", action="store_true")
    p.add_argument("--slow", type=int, default=60)
    p.add_argument("--hold", type=float, default=0.0)
    asyncio.run(main(p.parse_args()))

"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the rust-sdks2 group.

    python py_client.py URL [--mode auto|legacy] [--slow N] [--hold S]

`Client(URL, mode=MODE, read_timeout_seconds=10)` over the SDK's default httpx2 client (HTTP/1.1). MODE `auto` is the
SDK's default (POST `server/discover` first, fall back to the `initialize` handshake when the server does not answer
it as a 2026-07-28 server); `legacy` goes straight to `initialize`. Then tools/list, add(1,2), echo("hello"),
slow_count(N) with a progress callback (so a progressToken; default N=3), S seconds idle with the session's streams
open (--hold, default 0), add(40,2), and close (a Streamable HTTP session sends DELETE). Each request times out after
10 s, the whole run after 30 + N/10 + S s (../pysdk_tools.py `bounded_run`): when the SDK raises, the exception is logged and the run ends there.
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

    await bounded_run(exercise(Client(a.url, mode=a.mode, read_timeout_seconds=10), a.slow, a.hold),
                      30 + a.slow / 10 + a.hold)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--mode", default="auto")
    p.add_argument("--slow", type=int, default=3)
    p.add_argument("--hold", type=float, default=0.0)
    asyncio.run(main(p.parse_args()))

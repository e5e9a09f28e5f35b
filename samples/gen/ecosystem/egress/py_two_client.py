"""Two sessions of the official Python SDK client (mcp 2.3.0, the sdks group's venv) open at once in ONE process, one
per origin, their calls interleaved: an agent with two MCP servers configured (egress.sh squid-two-stateless).

    python py_two_client.py URL-A URL-B

`Client(url, mode="legacy", read_timeout_seconds=10)` for each URL, as ../relays/py_client.py opens one (its default
httpx2 client, HTTP/1.1, the proxy from HTTP_PROXY): initialize A, initialize B (each `async with` runs the initialize
handshake, notifications/initialized included), then A tools/list, B tools/list, A add(1,2), B add(1,2), A
echo("hello"), B echo("hello"), A slow_count(3), B slow_count(3) (every call with a progress callback, so a
progressToken, as ../pysdk_tools.py `call` makes it), 0.1 s apart, then close B, then A (the two clients' task groups
are nested in this task: they close in the reverse order of their opening; a session without a session id sends no
DELETE). Each request times out after 10 s, the whole run after 30 s. When the SDK raises, the exception is logged and
the run ends there: no retry, no new session.
"""

import argparse
import asyncio
import contextlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)

STEPS = [("tools/list", None), ("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow_count", {"n": 3})]


async def step(tag, client, name, arguments):
    """One request of session TAG (A or B): tools/list, or tools/call NAME(ARGUMENTS) with a progress callback."""
    if arguments is None:
        tools = await client.list_tools()
        log(tag, "tools", [t.name for t in tools.tools])
        return

    async def progress(p, total, message):
        log(tag, "progress", p, total, message)

    r = await client.call_tool(name, arguments, progress_callback=progress)
    log(tag, name, arguments, "->", [getattr(c, "text", c) for c in r.content])


async def main(url_a: str, url_b: str) -> None:
    from mcp.client.client import Client

    async def run():
        async with contextlib.AsyncExitStack() as stack:
            a = await stack.enter_async_context(Client(url_a, mode="legacy", read_timeout_seconds=10))
            log("A initialized", url_a, "negotiated", a.protocol_version)
            await asyncio.sleep(0.1)
            b = await stack.enter_async_context(Client(url_b, mode="legacy", read_timeout_seconds=10))
            log("B initialized", url_b, "negotiated", b.protocol_version)
            for name, arguments in STEPS:
                for tag, client in (("A", a), ("B", b)):
                    await asyncio.sleep(0.1)
                    await step(tag, client, name, arguments)
            await asyncio.sleep(0.1)
            log("closing B, then A")

    await bounded_run(run())


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url_a")
    p.add_argument("url_b")
    a = p.parse_args()
    asyncio.run(main(a.url_a, a.url_b))

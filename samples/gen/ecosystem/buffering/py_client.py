"""The buffering group's Python SDK client (mcp 2.3.0, the sdks group's venv): `Client(URL, mode="legacy")` over the
SDK's default httpx2 client (HTTP/1.1, `Accept-Encoding: gzip, deflate, br` there), the classic initialize handshake,
a stateful session with its standalone GET stream. Then tools/list, add(1,2), announce(4, 1.5) (4 notifications on
the GET stream, 1.5 s apart), slow_count(5, 1.5) with a progress callback (5 notifications/progress 1.5 s apart on
the reply), 3 s idle, add(40,2), close (DELETE). Each request times out after 30 s, the run after 60 s; when the
SDK raises, the run ends there (no retry, no new session).

    python py_client.py URL
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)


async def exercise(url):
    from mcp.client.client import Client

    async def progress(p, total, message):
        log("progress", p, total, message)

    async def on_message(m):
        log("server message", type(m).__name__, str(m)[:120])

    async def call(client, name, arguments, cb=None):
        r = await client.call_tool(name, arguments, progress_callback=cb)
        log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])

    async with Client(url, mode="legacy", read_timeout_seconds=30, message_handler=on_message) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        await call(client, "add", {"a": 1, "b": 2})
        await call(client, "announce", {"n": 4, "gap": 1.5})
        await call(client, "slow_count", {"n": 5, "gap": 1.5}, progress)
        await asyncio.sleep(3)
        await call(client, "add", {"a": 40, "b": 2})


if __name__ == "__main__":
    asyncio.run(bounded_run(exercise(sys.argv[1]), 60))

"""The compress2 group's Python SDK client (mcp 2.3.0 in compress2/.venv: `Client(URL, mode="legacy")` over the
SDK's default httpx2 client; brotli and backports.zstd are installed beside it, so it sends
`Accept-Encoding: gzip, deflate, br, zstd`). One bounded session: initialize (+ its standalone GET), tools/list,
echo("hello"), slow("wait") with a progress callback (5 notifications/progress, 1 s apart), catalog_tool_07("widget"),
close (DELETE). 30 s per request, 60 s for the run.

    python client.py URL
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

    async def call(client, name, arguments, cb=None):
        r = await client.call_tool(name, arguments, progress_callback=cb)
        log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])

    async with Client(url, mode="legacy", read_timeout_seconds=30) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", len(tools.tools))
        await call(client, "echo", {"text": "hello"})
        await call(client, "slow", {"text": "wait"}, progress)
        await call(client, "catalog_tool_07", {"text": "widget"})


if __name__ == "__main__":
    asyncio.run(bounded_run(exercise(sys.argv[1]), 60))

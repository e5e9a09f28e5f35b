"""The official Python SDK client (mcp 2.3.0, sdks/.venv) as a restartpy client: `Client(streamable_http_client(U),
mode="legacy")` (classic initialize, a stateful session with its standalone GET stream, DELETE at close) or, for
HTTP+SSE, `Client(sse_client(U), mode="legacy")`; one session for the whole run. initialize, tools/list, add(1,2),
echo("hello"), [restart point], add(40,2), echo("again"), 0.7 s apart, close. With --midcall the 2nd call is
slow_count(30) with a progress callback (so a progressToken: 30 notifications/progress 0.1 s apart), and the restart
point is just before it starts: the script kills the server while the reply streams. What the SDK raises is logged and
the run goes on to its next call (common.py `guarded`); the driver never makes a new session.

    python pysdk_client.py [--sse] [--midcall] URL MARK
Bounded: each call after the restart 10 s, the whole run asyncio.timeout(45), `timeout 60` in restartpy.sh.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import AFTER, BEFORE, GAP, SLOW, guarded, log, log_raised, ready, wait_go  # noqa: E402


async def progress(p, total, message):
    log("progress", p, total, message)


async def body(client, midcall, mark):
    log("negotiated", client.protocol_version)
    log("tools", [t.name for t in (await client.list_tools()).tools])
    await asyncio.sleep(GAP)
    before = [BEFORE[0], SLOW] if midcall else BEFORE
    for i, (name, arguments) in enumerate(before):
        if i == 1 and midcall:
            ready(mark)
            await guarded(name, arguments, client.call_tool(name, arguments, progress_callback=progress), 15)
        else:
            await guarded(name, arguments, client.call_tool(name, arguments))
        await asyncio.sleep(GAP)
    if not midcall:
        ready(mark)
    await wait_go(mark)
    await asyncio.sleep(GAP)
    for name, arguments in AFTER:
        await guarded(name, arguments, client.call_tool(name, arguments))
        await asyncio.sleep(GAP)
    log("closing")


async def main(url, mark, sse, midcall):
    from mcp.client.client import Client
    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import streamable_http_client

    transport = sse_client(url) if sse else streamable_http_client(url)
    try:
        async with asyncio.timeout(45):
            async with Client(transport, mode="legacy") as client:
                await body(client, midcall, mark)
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(main(args[0], args[1], "--sse" in sys.argv, "--midcall" in sys.argv))

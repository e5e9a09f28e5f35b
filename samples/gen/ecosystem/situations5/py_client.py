"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) with its defaults: `Client(URL)` (no
read_timeout_seconds, no mode: the SDK's own choices), the SDK's default httpx2 client. Connect, tools/list,
add(1,2), echo("hello"), close; what the SDK raises is logged and ends the run (no retry, no new session).

    python py_client.py URL

The run itself has no bound of ours: the script that starts it bounds it (timeout).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402


async def main(url: str) -> None:
    from mcp.client.client import Client

    try:
        async with Client(url) as client:
            log("negotiated", client.protocol_version)
            log("tools", [t.name for t in (await client.list_tools()).tools])
            for name, args in (("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"})):
                r = await client.call_tool(name, args)
                log(name, args, "->", [getattr(c, "text", c) for c in r.content])
        log("closed")
    except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point
        log_raised(e)


asyncio.run(main(sys.argv[1]))

"""The situations6 group's driver of the official Python SDK client (mcp 2.3.0, the sdks group's venv):
`Client(URL, mode="legacy")` (the classic initialize handshake, a session id, the standalone GET stream the transport
opens after initialize and re-opens on its own), the SDK's default httpx2 client, nothing else set. What the
application does with it is the scenario:

    python py_client.py URL retry N            tools/list, then add(i,1) once a second N times; a failed call is logged
                                               and the next one made all the same, with the same Client (an
                                               application's retry loop: no re-initialize of ours), close
    python py_client.py URL idle S TOOL JSON   tools/list, S s idle, tools/call TOOL(JSON), close

close = leaving `async with` (the SDK sends DELETE). The run's bound is the script's (timeout) plus 150 s here.
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402  (../pysdk_tools.py)


async def call(client, name, args):
    try:
        r = await client.call_tool(name, args, read_timeout_seconds=20)
        log(name, args, "->", [getattr(c, "text", c) for c in r.content][:1], "error" if r.is_error else "")
    except Exception as e:  # noqa: BLE001 - the SDK's failure is the record; go on with the same client
        log(name, args, "failed")
        log_raised(e)


async def exercise(url, mode, rest):
    from mcp.client.client import Client

    async with Client(url, mode="legacy") as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools][:8])
        if mode == "retry":
            for i in range(1, int(rest[0]) + 1):
                await call(client, "add", {"a": i, "b": 1})
                await asyncio.sleep(1)
        elif mode == "idle":
            log(f"idle {rest[0]} s")
            await asyncio.sleep(float(rest[0]))
            await call(client, rest[1], json.loads(rest[2]))
    log("closed")


async def main():
    try:
        async with asyncio.timeout(150):
            await exercise(sys.argv[1], sys.argv[2], sys.argv[3:])
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended after the SDK raised")


if __name__ == "__main__":
    asyncio.run(main())

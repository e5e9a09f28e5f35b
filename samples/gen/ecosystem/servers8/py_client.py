"""The official Python SDK client (mcp 2.3.0, servers8/.venv) for samples/gen/ecosystem/servers8.sh.

    python py_client.py URL [--sse]

Streamable HTTP: `Client(URL)` with its default mode ("auto": the server/discover probe, falling back to the
initialize handshake; after a handshake the SDK opens its GET stream and DELETEs the session on close). --sse: the
SDK's HTTP+SSE client (`mcp.client.sse.sse_client(URL)`, mode "legacy"). Calls: tools/list, add, echo, slow(2) with a
progress handler, add again; each call's outcome is logged and the run goes on; the whole run is bounded to 30 s.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised, progress  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)

CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("slow", {"n": 2}), ("add", {"a": 40, "b": 2})]


async def main(url, sse):
    from mcp.client.client import Client

    if sse:
        from mcp.client.sse import sse_client
        cm = Client(sse_client(url), mode="legacy")
    else:
        cm = Client(url)
    try:
        async with asyncio.timeout(30):
            async with cm as client:
                log("negotiated", client.protocol_version)
                tools = await client.list_tools()
                log("tools", [t.name for t in tools.tools])
                for name, arguments in CALLS:
                    try:
                        r = await client.call_tool(name, arguments, progress_callback=progress)
                        log(name, arguments, "-> isError", r.is_error, [getattr(c, "text", c) for c in r.content])
                    except Exception as e:  # noqa: BLE001 - what the SDK raised is the record
                        log_raised(e)
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.5)
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended after the SDK raised (no retry)")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "--sse" in sys.argv[2:]))

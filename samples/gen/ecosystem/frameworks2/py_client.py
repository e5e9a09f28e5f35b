"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) for samples/gen/ecosystem/frameworks2.sh.

    python py_client.py URL MODE [--progress]

MODE: legacy (initialize handshake, 2025-11-25; the SDK opens its GET stream and DELETEs on close), auto (the SDK's
server/discover probe, falling back to initialize), or 2026-07-28 (stateless, adopted directly). Calls: tools/list,
add, echo, [slow_count(3) with a progress handler], fail (a tool that errors), add again; each call's outcome is
logged and the run goes on; the whole run is bounded to 30 s.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised, progress  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)


async def one(client, name, arguments):
    try:
        r = await client.call_tool(name, arguments, progress_callback=progress)
        log(name, arguments, "-> isError", r.is_error, [getattr(c, "text", c) for c in r.content])
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the record
        log_raised(e)


async def main(url, mode, with_progress):
    from mcp.client.client import Client

    calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"})]
    if with_progress:
        calls.append(("slow_count", {"n": 3}))
    calls += [("fail", {"why": "asked to"}), ("add", {"a": 40, "b": 2})]
    try:
        async with asyncio.timeout(30):
            async with Client(url, mode=mode) as client:
                log("negotiated", client.protocol_version)
                tools = await client.list_tools()
                log("tools", [t.name for t in tools.tools])
                for name, arguments in calls:
                    await one(client, name, arguments)
                    await asyncio.sleep(0.1)
                await asyncio.sleep(0.5)
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended after the SDK raised (no retry)")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], "--progress" in sys.argv[3:]))

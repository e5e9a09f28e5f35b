"""The longlived2 group's Python SDK client driver (mcp 2.3.0, the sdks group's venv): one long-lived session.

    python py_driver.py URL

`Client(URL, mode="legacy")` over the SDK's defaults (httpx2, HTTP/1.1, the standalone GET stream the transport opens
after initialize and re-opens on its own): initialize, tools/list, then 45 s idle, add(0,1), 40 s idle,
wait(70) (a tool call silent for 70 s, longer than HAProxy's and lighttpd's timers; read timeout 120 s for it, 20 s
for the others), 40 s idle, add(2,1), close (DELETE). A failed call is logged and the run goes on with the same Client
(no retry or re-initialize of the driver's own). Bounded: 280 s.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402  (../pysdk_tools.py)

PLAN = [(45, "add", {"a": 0, "b": 1}, 20), (40, "wait", {"seconds": 70}, 120), (40, "add", {"a": 2, "b": 1}, 20)]


async def exercise(url: str) -> None:
    from mcp.client.client import Client

    async with Client(url, mode="legacy") as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        for gap, name, args, timeout in PLAN:
            log(f"idle {gap} s")
            await asyncio.sleep(gap)
            try:
                r = await client.call_tool(name, args, read_timeout_seconds=timeout)
                log(name, args, "->", [getattr(c, "text", c) for c in r.content], "error" if r.is_error else "")
            except Exception as e:  # noqa: BLE001 - the SDK's failure is the record; go on with the same client
                log(name, "failed")
                log_raised(e)
    log("closed")


async def main() -> None:
    try:
        async with asyncio.timeout(280):
            await exercise(sys.argv[1])
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended after the SDK raised")


if __name__ == "__main__":
    asyncio.run(main())

"""The longlived group's Python SDK client driver (mcp 2.3.0, the sdks group's venv): one long-lived session.

    python py_driver.py URL GAP_S CALLS

`Client(URL, mode="legacy", read_timeout_seconds=20)` over the SDK's defaults (httpx2, HTTP/1.1, the standalone GET
stream the transport opens after initialize and re-opens on its own): initialize, tools/list, then CALLS times
add(i, 1), GAP_S seconds idle before each (the session and its GET stream stay open), then close (DELETE). A call
that fails is logged and the run goes on with the same Client (the driver adds no retry and no re-initialize of its
own: what happens after a failure is the SDK's doing). The whole run is bounded by 30 + CALLS * (GAP_S + 20) s.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402  (../pysdk_tools.py)


async def exercise(url: str, gap: float, calls: int) -> None:
    from mcp.client.client import Client

    async with Client(url, mode="legacy", read_timeout_seconds=20) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        for i in range(calls):
            log(f"idle {gap} s")
            await asyncio.sleep(gap)
            try:
                r = await client.call_tool("add", {"a": i, "b": 1})
                log("add", i, 1, "->", [getattr(c, "text", c) for c in r.content])
            except Exception as e:  # noqa: BLE001 - the SDK's failure is the record; go on with the same client
                log_raised(e)
    log("closed")


async def main() -> None:
    url, gap, calls = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    try:
        async with asyncio.timeout(30 + calls * (gap + 20)):
            await exercise(url, gap, calls)
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended after the SDK raised")


if __name__ == "__main__":
    asyncio.run(main())

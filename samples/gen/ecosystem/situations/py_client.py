"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) with its defaults: `Client(URL)` (no
read_timeout_seconds, no mode: the SDK's own choices), the SDK's default httpx2 client.

    python py_client.py URL S      connect, tools/call sleep(S), log what the SDK gives back, close

The run itself has no bound of ours: the script that starts it bounds it (timeout).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import log, log_raised  # noqa: E402


async def main(url: str, seconds: float) -> None:
    from mcp.client.client import Client

    try:
        async with Client(url) as client:
            log("negotiated", client.protocol_version)
            r = await client.call_tool("sleep", {"seconds": seconds})
            log("sleep ->", [getattr(c, "text", c) for c in r.content])
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        raise


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))

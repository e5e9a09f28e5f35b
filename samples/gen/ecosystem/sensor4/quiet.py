"""sensor4's quiet client: ONE official Python SDK client session (mcp 2.3.0, `Client(url, mode="legacy")`):
tools/call wait(S) with a read timeout of S + 30 s, then close (DELETE). One JSON line per step on stdout.

    python quiet.py URL S
"""

import asyncio
import json
import sys
import time

from mcp.client.client import Client

T0 = time.time()


def out(**kw):
    print(json.dumps({"wall": round(time.time(), 6), "t": round(time.time() - T0, 3), **kw}), flush=True)


async def main():
    url, s = sys.argv[1], float(sys.argv[2])
    async with asyncio.timeout(s + 60):
        async with Client(url, mode="legacy") as client:
            out(call="initialize", ok=True, detail=client.protocol_version)
            r = await client.call_tool("wait", {"s": s}, read_timeout_seconds=s + 30)
            out(call=f"wait({s:g})", ok=not r.is_error, detail="".join(getattr(c, "text", "") for c in r.content))
    out(call="close", ok=True, detail="")


asyncio.run(main())

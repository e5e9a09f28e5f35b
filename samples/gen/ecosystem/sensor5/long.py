"""sensor5's long Python sessions: SESSIONS concurrent sessions of the official Python SDK client (mcp 2.3.0,
`Client(url, mode="legacy")`, defaults: after initialize the SDK opens its GET stream), each SECONDS long: add(k,i)
once a second, and 6 s in slow_count(100) (100 progress notifications 0.1 s apart, about 10 s) beside them, then
close (the SDK sends DELETE). One JSON line per call on stdout, then a summary line. Bounded: asyncio.timeout(90).

    python long.py URL SESSIONS SECONDS
"""

import asyncio
import json
import sys
import time

from mcp.client.client import Client

T0 = time.monotonic()


def out(**kw):
    print(json.dumps({"t": round(time.monotonic() - T0, 3), **kw}), flush=True)


def text_of(r):
    return "".join(getattr(c, "text", "") for c in r.content)


async def one(url, k, secs, results):
    async def step(name, coro, check):
        try:
            r = await coro
            ok, detail = check(r)
        except BaseException as e:  # noqa: BLE001
            ok, detail = False, f"{type(e).__name__}: {str(e)[:200]}"
        out(session=k, call=name, ok=ok, detail=detail)
        results.append(ok)

    async def slow(client):
        await asyncio.sleep(6)
        await step("slow_count(100)", client.call_tool("slow_count", {"n": 100}, read_timeout_seconds=30,
                                                        progress_callback=lambda p, t, m: asyncio.sleep(0)),
                   lambda r: (text_of(r) == "counted 100", text_of(r)))

    try:
        async with Client(url, mode="legacy") as client:
            out(session=k, call="initialize", ok=True, detail=client.protocol_version)
            s = asyncio.create_task(slow(client))
            for i in range(secs):
                await step(f"add({k},{i})", client.call_tool("add", {"a": k, "b": i}, read_timeout_seconds=30),
                           lambda r, v=k + i: (text_of(r) == str(v), text_of(r)))
                await asyncio.sleep(1)
            await s
        out(session=k, call="close", ok=True, detail="")
    except BaseException as e:  # noqa: BLE001
        out(session=k, call="session", ok=False, detail=f"{type(e).__name__}: {str(e)[:200]}")
        results.append(False)


async def main():
    url, n, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    results: list = []
    try:
        async with asyncio.timeout(90):
            await asyncio.gather(*[one(url, k, secs, results) for k in range(n)])
    except TimeoutError:
        out(session=-1, call="run", ok=False, detail="90 s timeout")
    out(summary=True, calls=len(results), ok=sum(results), failed=len(results) - sum(results))


asyncio.run(main())

"""sensor4's Python client load (sensor3's client.py; HTTPS with SSL_CERT_FILE=cert.pem and SSLKEYLOGFILE=KEYS in the
environment: the SDK's httpx2 builds its context with ssl.create_default_context(cafile=SSL_CERT_FILE), which logs keys): SESSIONS concurrent sessions of the official Python SDK client (mcp 2.3.0,
`Client(url, mode="legacy")`: the classic initialize handshake, plain HTTP/1.1, the SDK's default httpx2 client),
each: tools/list, a burst of 6 concurrent add calls, slow_count(3) with a progress callback, and in every
BIG_EVERY-th session big(BIG_KB), then close (the SDK sends DELETE). Every result is checked and logged, one JSON
line per call on stdout, then one summary line. Bounded: asyncio.timeout(90) for the whole run, read timeout 30 s a call.

    python client.py URL SESSIONS BIG_EVERY BIG_KB
"""

import asyncio
import json
import sys
import time

from mcp.client.client import Client

T0 = time.monotonic()


def out(**kw):
    print(json.dumps({"t": round(time.monotonic() - T0, 3), **kw}), flush=True)


async def one(url: str, k: int, big_every: int, big_kb: int, results: list):
    async def step(name, coro, check):
        try:
            r = await coro
            ok, detail = check(r)
        except BaseException as e:  # noqa: BLE001 - what the SDK raised is the point
            ok, detail = False, f"{type(e).__name__}: {str(e)[:200]}"
        out(session=k, call=name, ok=ok, detail=detail)
        results.append(ok)

    def text_of(r):
        return "".join(getattr(c, "text", "") for c in r.content)

    try:
        async with Client(url, mode="legacy") as client:
            out(session=k, call="initialize", ok=True, detail=client.protocol_version)
            await step("tools/list", client.list_tools(), lambda r: (any(t.name == "wait" for t in r.tools), f"{len(r.tools)} tools"))
            await asyncio.gather(*[
                step(f"add({k},{j})", client.call_tool("add", {"a": k, "b": j}, read_timeout_seconds=30),
                     lambda r, s=k + j: (text_of(r) == str(s) and not r.is_error, text_of(r)))
                for j in range(6)])
            await step("slow_count(3)", client.call_tool("slow_count", {"n": 3}, read_timeout_seconds=30,
                                                          progress_callback=lambda p, t, m: asyncio.sleep(0)),
                       lambda r: (text_of(r) == "counted 3", text_of(r)))
            if big_every and k % big_every == 0:
                await step(f"big({big_kb})", client.call_tool("big", {"kb": big_kb}, read_timeout_seconds=30),
                           lambda r: (len(text_of(r)) == big_kb * 1024, f"{len(text_of(r))} chars"))
        out(session=k, call="close", ok=True, detail="")
    except BaseException as e:  # noqa: BLE001
        out(session=k, call="session", ok=False, detail=f"{type(e).__name__}: {str(e)[:200]}")
        results.append(False)


async def main():
    url, n, big_every, big_kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    results: list = []
    try:
        async with asyncio.timeout(90):
            await asyncio.gather(*[one(url, k, big_every, big_kb, results) for k in range(n)])
    except TimeoutError:
        out(session=-1, call="run", ok=False, detail="90 s timeout")
    out(summary=True, calls=len(results), ok=sum(results), failed=len(results) - sum(results))


asyncio.run(main())

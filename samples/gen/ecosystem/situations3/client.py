"""Official Python SDK client (mcp 2.3.0, `Client(url, mode="legacy")`: the classic initialize handshake, a stateful
session with its standalone GET stream, which the SDK reconnects with the last event id it saw). The same application
logic as client.mjs: initialize, tools/list, ticker(N, MS); after the K-th log notification it writes READY-FILE,
waits WAIT s, ticker(3, 100), waits 1.5 s, add(40,2), leaves (DELETE). No retry, no re-initialize of our own; what
the SDK raises is logged. 40 s guard.
    python client.py URL READY-FILE N MS K WAIT
"""
import asyncio
import sys
import time

from mcp.client.client import Client

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def main(url, ready, n, ms, k, wait):
    seen = 0

    async def on_log(params):
        nonlocal seen
        log("log notification:", params.data)
        seen += 1
        if seen == k:
            with open(ready, "w") as f:
                f.write("ready\n")
            log("ready file written")

    async def step(label, coro):
        try:
            r = await coro
            log(label, "->", [c.text for c in r.content])
        except Exception as e:  # what the SDK raises, logged
            log(label, "the SDK raised:", type(e).__name__, e)

    try:
        async with asyncio.timeout(40):
            async with Client(url, mode="legacy", logging_callback=on_log) as client:
                tools = await client.list_tools()
                log("tools", [t.name for t in tools.tools])
                await step(f"ticker({n},{ms})", client.call_tool("ticker", {"n": n, "ms": ms}, read_timeout_seconds=10))
                await asyncio.sleep(wait)
                await step("ticker(3,100)", client.call_tool("ticker", {"n": 3, "ms": 100}, read_timeout_seconds=10))
                await asyncio.sleep(1.5)
                await step("add(40,2)", client.call_tool("add", {"a": 40, "b": 2}, read_timeout_seconds=10))
    except BaseException as e:  # noqa: BLE001
        log("the SDK raised:", type(e).__name__, e)
    log("done")


if __name__ == "__main__":
    u, r, n, ms, k, w = sys.argv[1:7]
    asyncio.run(main(u, r, int(n), int(ms), int(k), float(w)))

"""fastmcp's Python Client (PyPI fastmcp 2.14.7, on mcp 1.30.0) driven directly, no model: Client(url) (infers
StreamableHttpTransport from the http URL) with a progress_handler and a log_handler, list_tools(), one call, then
add(40,2), leaving the `async with` (the client closes its session: DELETE). No retry of ours.

    python fastmcp_client.py URL slow|ticker N
"""
import asyncio
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, flush=True)


async def main(url, what, n):
    from fastmcp import Client

    async def on_progress(progress, total, message):
        log("progress", progress, total, message)

    async def on_log(message):
        log("log notification:", message.data)

    async def step(label, name, args):
        try:
            r = await client.call_tool(name, args, timeout=10)
            log(label, "->", [getattr(c, "text", c) for c in r.content])
        except BaseException as e:  # noqa: BLE001 - what the framework raised is the point
            log(label, "raised:", type(e).__name__, str(e)[:200])

    client = Client(url, progress_handler=on_progress, log_handler=on_log, timeout=15)
    async with asyncio.timeout(40):
        async with client:
            log("tools", [t.name for t in await client.list_tools()])
            if what == "slow":
                await step(f"slow_count({n})", "slow_count", {"n": n})
            else:
                await step(f"ticker({n})", "ticker", {"n": n})
                await asyncio.sleep(5)
            await step("add(40,2)", "add", {"a": 40, "b": 2})
    log("closed")


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
    except BaseException as e:  # noqa: BLE001
        log("ended with", type(e).__name__, str(e)[:300])

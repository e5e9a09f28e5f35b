"""The official Python SDK client (mcp 2.3.0, this folder's venv), `Client(URL, mode="legacy")` (the classic initialize
handshake and a session, so the transport opens the standalone GET stream and DELETEs the session on close; the
setting users add for servers without 2026-07-28), otherwise its defaults. One bounded session:

    python client.py URL    initialize, tools/list, add(1, 2), big(48), slow(5) with a progress callback,
                            ticker(3, 400), add(3, 4), big(24), 2 s for the ticks, close (DELETE)

Every call's outcome is logged (the application's view: did every call get its answer?). The script that starts it
bounds the run (timeout).
"""

import asyncio
import sys
import time
import warnings

warnings.simplefilter("ignore")
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


async def progress(p, total, message):
    log("progress", p, total, message)


async def logmsg(params):
    log("notification", getattr(params, "data", params))


def show(r):
    out = []
    for c in r.content:
        t = getattr(c, "text", str(c))
        out.append(t if len(t) < 60 else f"<{len(t)} chars, ends {t[-12:]!r}>")
    return out


async def main(url):
    from mcp.client.client import Client

    calls = [("add", {"a": 1, "b": 2}), ("big", {"kb": 48}), ("slow", {"seconds": 5}), ("ticker", {"n": 3, "ms": 400}),
             ("add", {"a": 3, "b": 4}), ("big", {"kb": 24})]
    async with Client(url, mode="legacy", logging_callback=logmsg) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        ok = 0
        for name, args in calls:
            try:
                r = await client.call_tool(name, args, progress_callback=progress if name == "slow" else None)
                log(f"{name} ->", show(r), "error" if r.is_error else "")
                ok += 0 if r.is_error else 1
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
                log(f"{name} raised", type(e).__name__, str(e)[:200])
        await asyncio.sleep(2)
        log(f"{ok}/{len(calls)} calls answered")
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

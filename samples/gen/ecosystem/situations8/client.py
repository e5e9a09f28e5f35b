"""The official Python SDK client (mcp 2.3.0, this folder's venv), `Client(URL)` with its defaults (mode "auto"), in
the situations where the client gives up on a call first:

    python client.py URL readtimeout   slow(15) with read_timeout_seconds=3 on call_tool (the SDK's per-call
                                       timeout), then add(1, 2), then close
    python client.py URL cancelscope   slow(15) inside anyio.move_on_after(3) (the application cancels the call),
                                       then add(1, 2), then close
    python client.py URL hang          tools/list, then slow(15) and wait for it (the script kills this process)
    ... MODE legacy                    the same with Client(URL, mode="legacy") (the classic initialize handshake
                                       and a session: the setting users add for servers without 2026-07-28)

The script that starts it bounds the run (timeout).
"""

import asyncio
import sys
import time
import warnings

import anyio

warnings.simplefilter("ignore")
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


def leaves(x):
    return [y for z in x.exceptions for y in leaves(z)] if isinstance(x, BaseExceptionGroup) else [x]


async def progress(p, total, message):
    log("progress", p, total, message)


async def main(url, mode, legacy):
    from mcp.client.client import Client

    async with (Client(url, mode="legacy") if legacy else Client(url)) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        if mode == "readtimeout":
            try:
                r = await client.call_tool("slow", {"seconds": 15}, read_timeout_seconds=3, progress_callback=progress)
                log("slow ->", r.content)
            except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
                for x in leaves(e):
                    log("the SDK raised:", type(x).__name__, str(x)[:200])
        elif mode == "cancelscope":
            with anyio.move_on_after(3) as scope:
                r = await client.call_tool("slow", {"seconds": 15}, progress_callback=progress)
                log("slow ->", r.content)
            log("cancelled by the scope:", scope.cancelled_caught)
        else:
            log("calling slow(15); waiting to be killed")
            r = await client.call_tool("slow", {"seconds": 15}, progress_callback=progress)
            log("slow ->", r.content)
            return
        await asyncio.sleep(1)
        r = await client.call_tool("add", {"a": 1, "b": 2})
        log("add ->", [getattr(c, "text", c) for c in r.content])
        await asyncio.sleep(1)
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:4] == ["legacy"]))

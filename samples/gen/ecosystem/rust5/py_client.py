"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the rust5 group (copied from ../rust4/py_client.py), over the legacy HTTP+SSE
transport: `Client(sse_client(URL), mode="legacy", read_timeout_seconds=10)` (GET URL, the `endpoint` event, every
message POSTed there); with --streamable, Streamable HTTP instead: `Client(URL, mode="legacy", ...)` (the initialize
handshake, a stateful session, its GET stream, DELETE at close). --prefix P puts P before every tool name called (a
gateway's namespace, e.g. `py/`).

    python py_client.py URL [--slow N] [--hold S] [--streamable] [--prefix P] [--again K]

initialize, tools/list (a JSON-RPC error answer is logged), add(1,2), echo("hello"), slow_count(N) with a progress
callback (so a progressToken), an unknown tool (no_such_tool: a JSON-RPC error is expected), fail (a result with isError), S seconds idle with the
GET stream open (--hold, default 0; the log says "holding" first), add(40,2), close. A JSON-RPC error answer is logged
and the run goes on; anything else the SDK raises ends the run (../pysdk_tools.py `bounded_run`: no retry, no new
session). --echo-field F: the argument name of echo's text (default `text`; echo-mcp's echo takes `message`). --again K: K more calls echo("again") after the last add, 0.1 s apart (default 0). Each request times out
after 10 s, the whole run after 30 + N/10 + S s.
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, log  # noqa: E402  (../pysdk_tools.py)


async def exercise(client_cm, slow: int, hold: float, prefix: str = "", again: int = 0, echo_field: str = "text") -> None:
    from mcp.shared.exceptions import MCPError

    seen = []

    async def progress(p, total, message):
        seen.append(p)

    async def call(name, arguments, cb=None):
        name = prefix + name
        try:
            r = await client.call_tool(name, arguments, progress_callback=cb)
            log(name, arguments, "->", "isError" if getattr(r, "is_error", None) else "", [getattr(c, "text", c) for c in r.content])
        except MCPError as e:
            log(name, arguments, "-> JSON-RPC error", e.error.code, e.error.message)
        await asyncio.sleep(0.1)

    async with client_cm as client:
        log("negotiated", client.protocol_version)
        try:
            tools = await client.list_tools()
            log("tools", [t.name for t in tools.tools])
        except MCPError as e:
            log("tools/list -> JSON-RPC error", e.error.code, e.error.message)
        await call("add", {"a": 1, "b": 2})
        await call("echo", {echo_field: "hello"})
        await call("slow_count", {"n": slow}, progress)
        log("progress notifications seen", len(seen))
        await call("no_such_tool", {})
        await call("fail", {})
        if hold:
            log(f"holding {hold} s")
            await asyncio.sleep(hold)
        await call("add", {"a": 40, "b": 2})
        for _ in range(again):
            await call("echo", {echo_field: "again"})


async def main(a) -> None:
    from mcp.client.client import Client
    from mcp.client.sse import sse_client

    transport = a.url if a.streamable else sse_client(a.url)
    await bounded_run(exercise(Client(transport, mode="legacy", read_timeout_seconds=10), a.slow, a.hold, a.prefix, a.again, a.echo_field),
                      30 + a.slow / 10 + a.hold)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url")
    p.add_argument("--slow", type=int, default=3)
    p.add_argument("--hold", type=float, default=0.0)
    p.add_argument("--streamable", action="store_true")
    p.add_argument("--prefix", default="")
    p.add_argument("--again", type=int, default=0)
    p.add_argument("--echo-field", default="text")
    asyncio.run(main(p.parse_args()))

"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gateways6 group, pointed at my-cool-proxy (a
"code mode" gateway whose front offers meta tools and runs Lua scripts that call the upstream's tools).

    python cool_client.py URL [--server py] [--restart-ready-file F --restart-go-file G] [--ready-file F]

`Client(URL, mode="legacy")` (Streamable HTTP, the classic initialize handshake, a stateful session with its standalone
GET stream, DELETE at close). Then tools/list, list-servers, list-server-tools(py), tool-details for add, echo and
slow_count (the gateway refuses to run a tool the session has not inspected), and the meta tool `execute` with
Lua scripts calling the upstream server `py`: add(1,2), echo("hello"), slow_count(3) (with a progress callback, so a
progressToken), add(40,2), 0.1 s apart (../pysdk_tools.py `call`).
--restart-ready-file/--restart-go-file: then touch the first and wait (max 30 s) for the second (the script restarts the
gateway or the upstream meanwhile), then execute add(2,3), echo("after restart") and add(5,5) in the same session.
--ready-file: instead, touch it just before an execute of slow_count(40) (about 4 s; the script kills the upstream
during it), wait 2 s, then execute add(2,3) and add(5,5).
Each request times out after 15 s, the run after 50 s; when the SDK raises on a call, that is logged and the run goes
on with the next call (no retry, no new session).
"""

import argparse
import asyncio
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, call, log, log_raised  # noqa: E402  (../pysdk_tools.py)


async def wait_for(path: str) -> None:
    for _ in range(300):
        if os.path.exists(path):
            return
        await asyncio.sleep(0.1)
    log("gave up waiting for", path)


async def main(a) -> None:
    from mcp.client.client import Client

    s = a.server

    async def step(name, arguments):
        try:
            await call(client, name, arguments)
        except Exception as e:  # noqa: BLE001 - the error is the record; go on with the next call
            log_raised(e)
        await asyncio.sleep(0.1)

    async def lua(expr):
        await step("execute", {"script": f"result({s}.{expr}:await())"})

    async with Client(a.url, mode="legacy", read_timeout_seconds=15) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        await step("list-servers", {})
        await step("list-server-tools", {"luaServerName": s})
        for t in ("add", "echo", "slow_count"):  # the gateway refuses a tool the session has not inspected
            await step("tool-details", {"luaServerName": s, "luaToolName": t})
        await lua("add({a = 1, b = 2})")
        await lua('echo({text = "hello"})')
        if a.ready_file:
            pathlib.Path(a.ready_file).touch()
            await lua("slow_count({n = 40})")
            await asyncio.sleep(2)
            await lua("add({a = 2, b = 3})")
            await lua("add({a = 5, b = 5})")
            return
        await lua("slow_count({n = 3})")
        await lua("add({a = 40, b = 2})")
        if a.restart_ready_file:
            pathlib.Path(a.restart_ready_file).touch()
            await wait_for(a.restart_go_file)
            await lua("add({a = 2, b = 3})")
            await lua('echo({text = "after restart"})')
            await lua("add({a = 5, b = 5})")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("--server", default="py")
    ap.add_argument("--ready-file")
    ap.add_argument("--restart-ready-file")
    ap.add_argument("--restart-go-file")
    asyncio.run(bounded_run(main(ap.parse_args()), seconds=50))

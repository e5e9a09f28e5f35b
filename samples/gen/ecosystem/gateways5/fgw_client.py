"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gateways5 group, pointed at fastmcp-gateway,
whose front offers meta tools instead of the upstream's tools.

    python fgw_client.py URL [--restart-ready-file F --restart-go-file G]

`Client(URL, mode="legacy")` (the classic initialize handshake, a stateful session with its standalone GET stream,
DELETE at close), then tools/list, discover_tools(), discover_tools(domain="py"), get_tool_schema("add"),
execute_tool add(1,2), execute_tool echo("hello"), execute_tool slow_count(3) (with a progress callback, so a
progressToken on the front request), execute_tool add(40,2), 0.1 s apart (../pysdk_tools.py `call`).
--restart-ready-file/--restart-go-file: then touch the first and wait (max 30 s) for the second (the script restarts
the upstream meanwhile), then execute_tool add(2,3), echo("after restart") and a tool that does not exist, in the same
session. Each request times out after 10 s, the run after 45 s; a call the SDK raises on is logged and the run goes on.
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


async def step(client, name, arguments):
    try:
        await call(client, name, arguments)
    except Exception as e:  # noqa: BLE001 - the error is the record; go on with the next call
        log_raised(e)
    await asyncio.sleep(0.1)


async def main(a) -> None:
    from mcp.client.client import Client

    async with Client(a.url, mode="legacy", read_timeout_seconds=10) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        await step(client, "discover_tools", {})
        await step(client, "discover_tools", {"domain": "py"})
        await step(client, "get_tool_schema", {"tool_name": "add"})
        ex = lambda name, args: step(client, "execute_tool", {"tool_name": name, "arguments": args})  # noqa: E731
        await ex("add", {"a": 1, "b": 2})
        await ex("echo", {"text": "hello"})
        await ex("slow_count", {"n": 3})
        await ex("add", {"a": 40, "b": 2})
        if a.restart_ready_file:
            pathlib.Path(a.restart_ready_file).touch()
            await wait_for(a.restart_go_file)
            await ex("add", {"a": 2, "b": 3})
            await ex("echo", {"text": "after restart"})
            await ex("nosuch", {})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("--restart-ready-file")
    ap.add_argument("--restart-go-file")
    asyncio.run(bounded_run(main(ap.parse_args()), seconds=45))

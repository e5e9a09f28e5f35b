"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) driving agent-mcp-gateway over stdio (its only
front transport), for the gateways4 `agw` scenario: only the gateway's upstream hop (HTTP) is on the wire.

    python agw_client.py GATEWAY-COMMAND... [--restart-ready-file F --restart-go-file G]

Spawns the gateway (GATEWAY-COMMAND, environment inherited), initializes, tools/list, list_servers,
get_server_tools(server="py"), then execute_tool(server="py", tool=...) for add(1,2), echo("hello A"),
slow_count(3) (with a progress callback, so a progressToken on the front), add(40,2), 0.1 s apart. With the restart
files: touch the first, wait (max 30 s) for the second (the script restarts the upstream meanwhile), then
add(2,3), echo("after restart A"), add(5,5) in the same session. The run is bounded (45 s); when the SDK raises on a
call, that is logged and the run goes on (no retry, no new session).
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
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=a.command[0], args=a.command[1:], env=dict(os.environ))
    async with Client(stdio_client(params), mode="legacy", read_timeout_seconds=10) as client:
        log("A negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("A tools", [t.name for t in tools.tools])
        await step(client, "list_servers", {})
        await step(client, "get_server_tools", {"server": "py"})

        def ex(tool, args):
            return step(client, "execute_tool", {"server": "py", "tool": tool, "args": args})

        await ex("add", {"a": 1, "b": 2})
        await ex("echo", {"text": "hello A"})
        await ex("slow_count", {"n": 3})
        await ex("add", {"a": 40, "b": 2})
        if a.restart_ready_file:
            pathlib.Path(a.restart_ready_file).touch()
            await wait_for(a.restart_go_file)
            await ex("add", {"a": 2, "b": 3})
            await ex("echo", {"text": "after restart A"})
            await ex("add", {"a": 5, "b": 5})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--restart-ready-file")
    ap.add_argument("--restart-go-file")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    asyncio.run(bounded_run(main(ap.parse_args()), seconds=45))

"""The official Python SDK client (mcp 2.3.0, the sdks group's venv) of the gateways5 group for the upstream-crash
scenarios: the upstream server is killed while a call through the gateway is running.

    python crash_client.py URL --ready-file F [--fgw]

`Client(URL, mode="legacy")` (Streamable HTTP, a stateful session with its standalone GET stream, DELETE at close):
initialize, tools/list, add(1,2), then touch F (the script kills the upstream about 1.5 s later and starts a new
one), slow_count(40) with a progress callback (40 progress notifications 0.1 s apart: about 4 s, so the kill lands
in it), 2 s idle (the new upstream is up by then), then add(2,3) and add(5,5) in the same session. --fgw: the calls go through fastmcp-gateway's meta tool,
execute_tool(tool_name, arguments). Each request times out after 10 s, the run after 45 s; a call the SDK raises on
is logged and the run goes on.
"""

import argparse
import asyncio
import os
import pathlib
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import bounded_run, call, log, log_raised  # noqa: E402  (../pysdk_tools.py)


async def main(a) -> None:
    from mcp.client.client import Client

    async def step(name, arguments):
        if a.fgw:
            name, arguments = "execute_tool", {"tool_name": name, "arguments": arguments}
        try:
            await call(client, name, arguments)
        except Exception as e:  # noqa: BLE001 - the error is the record; go on with the next call
            log_raised(e)
        await asyncio.sleep(0.1)

    async with Client(a.url, mode="legacy", read_timeout_seconds=10) as client:
        log("negotiated", client.protocol_version)
        tools = await client.list_tools()
        log("tools", [t.name for t in tools.tools])
        await step("add", {"a": 1, "b": 2})
        pathlib.Path(a.ready_file).touch()
        await step("slow_count", {"n": 40})
        await asyncio.sleep(2)  # the new upstream is up by then
        await step("add", {"a": 2, "b": 3})
        await step("add", {"a": 5, "b": 5})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("url")
    ap.add_argument("--ready-file", required=True)
    ap.add_argument("--fgw", action="store_true")
    asyncio.run(bounded_run(main(ap.parse_args()), seconds=45))

"""AutoGen (autogen-ext 0.7.5 `McpWorkbench`, mcp 1.30.0; agents2/.venv-autogen) as a restartpy client without an LLM:
`async with McpWorkbench(StreamableHttpServerParams(url=U)) as wb:` (its actor connects and initializes: one MCP
session for the block), `await wb.list_tools()`, then `await wb.call_tool(name, args)` (what an AssistantAgent given
the workbench calls) for add(1,2), echo("hello"), [restart point], add(40,2), echo("again"), 0.7 s apart, then the
block ends (stop). A call that raises is logged and the run goes on.

    python autogen_client.py URL MARK
Bounded: each call after the restart 10 s, the whole run asyncio.timeout(45), `timeout 60` in restartpy.sh.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import GAP, around_restart, log, log_raised  # noqa: E402


async def call(wb, name, arguments):
    r = await wb.call_tool(name, arguments)
    return ("ERROR " if r.is_error else "") + r.to_text()


async def main(url, mark):
    from autogen_ext.tools.mcp import McpWorkbench, StreamableHttpServerParams

    try:
        async with asyncio.timeout(45):
            async with McpWorkbench(server_params=StreamableHttpServerParams(url=url)) as wb:
                log("tools", [t["name"] for t in await wb.list_tools()])
                await asyncio.sleep(GAP)
                await around_restart(mark, lambda n, a: call(wb, n, a))
                log("closing")
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

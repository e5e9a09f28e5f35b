"""Agno 3.1.10 `MCPTools` (FastMCP 4.2.3 client on mcp 2.3.0; agents2/.venv-agno) as a restartpy client without an
LLM: `async with MCPTools(url=U, transport="streamable-http") as mcp_tools:` (one classic session: initialize,
tools/list), then each tool's Agno entrypoint awaited as an Agent calls it: add(1,2), echo("hello"), [restart point],
add(40,2), echo("again"), 0.7 s apart, then the block ends (close). MCPTools' defaults otherwise (protocol_mode
"legacy", a ping before every call, a progressToken on every call). A call that raises is logged and the run goes on.

    python agno_client.py URL MARK
Bounded: each call after the restart 10 s, the whole run asyncio.timeout(45), `timeout 60` in restartpy.sh; the
script switches Agno's telemetry off (AGNO_TELEMETRY=false).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import GAP, around_restart, log, log_raised  # noqa: E402


async def call(mcp_tools, name, arguments):
    out = await mcp_tools.functions[name].entrypoint(**arguments)
    return getattr(out, "content", out)


async def main(url, mark):
    from agno.tools.mcp import MCPTools

    try:
        async with asyncio.timeout(45):
            async with MCPTools(url=url, transport="streamable-http") as mcp_tools:
                log("tools", list(mcp_tools.functions))
                await asyncio.sleep(GAP)
                await around_restart(mark, lambda n, a: call(mcp_tools, n, a))
                log("closing")
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
        log("run ended")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

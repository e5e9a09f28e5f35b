"""Agno (PyPI `agno[mcp]`: its MCPTools is built on the FastMCP 4 client, on the Python SDK mcp 2.x) as an MCP client
without an LLM: `async with MCPTools(url=U, transport=T) as mcp_tools:` (connect, initialize, tools/list), then each
tool's Agno entrypoint called as an Agent would call it (`await mcp_tools.functions[name].entrypoint(**args)`): add(1,2),
echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py CALLS), 0.1 s apart, then the `async with` block ends
(close). MCPTools' defaults for everything else: protocol_mode "legacy" (a classic initialize session, not the FastMCP
client's own 2026-07-28 default), a `ping` before every call, no progress callback (no progressToken).

    python agno_client.py streamable-http http://127.0.0.1:PORT/mcp
    python agno_client.py sse http://127.0.0.1:PORT/sse     (deprecated in Agno, still supported)

Bounded: asyncio.timeout(30). Runs in agents2/.venv-agno (requirements-agno.txt); agents2.sh switches Agno's telemetry
off (AGNO_TELEMETRY=false).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def main(transport: str, url: str) -> None:
    from agno.tools.mcp import MCPTools

    async with asyncio.timeout(30):
        async with MCPTools(url=url, transport=transport) as mcp_tools:
            log("tools", list(mcp_tools.functions))
            for name, arguments in CALLS:
                out = await mcp_tools.functions[name].entrypoint(**arguments)
                log(name, arguments, "->", getattr(out, "content", out))
                await asyncio.sleep(0.1)
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

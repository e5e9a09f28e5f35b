"""mcp-use (PyPI, on the Python SDK mcp 1.x it pins) as an MCP client, its README's client-only usage without an
LLM: `MCPClient.from_dict({"mcpServers": {name: {"url": U}}})`, `await client.create_session(name)` (connect and
initialize; for a URL the connector tries Streamable HTTP first and falls back to HTTP+SSE on ANY failure),
`session.list_tools()`, `session.call_tool(...)` for add(1,2), echo("hello"), slow_count(3), add(40,2)
(../pysdk_tools.py CALLS), 0.1 s apart, `client.close_all_sessions()`. Anonymized telemetry is switched off by
agents.sh (MCP_USE_ANONYMIZED_TELEMETRY=false: it would post to PostHog).

    python mcp_use_client.py http://127.0.0.1:PORT/mcp     (or /sse for a legacy HTTP+SSE server)

Bounded: asyncio.timeout(30). Runs in agents/.venv-mcp-use (requirements-mcp-use.txt).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def main(url: str) -> None:
    from mcp_use import MCPClient

    client = MCPClient.from_dict({"mcpServers": {"agents": {"url": url}}})
    try:
        async with asyncio.timeout(30):
            session = await client.create_session("agents")
            log("connected; tools", [t.name for t in await session.list_tools()])
            for name, arguments in CALLS:
                r = await session.call_tool(name, arguments)
                log(name, arguments, "->", [getattr(c, "text", c) for c in r.content])
                await asyncio.sleep(0.1)
    finally:
        await client.close_all_sessions()
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

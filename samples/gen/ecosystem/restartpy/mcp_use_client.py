"""mcp-use 1.7.1 (on the Python SDK mcp 1.30.0 it pins; agents/.venv-mcp-use) as a restartpy client, its README's
client-only usage without an LLM: `MCPClient.from_dict({"mcpServers": {"restartpy": {"url": U}}})`,
`await client.create_session("restartpy")` (connect and initialize: one MCP session; for a URL the connector tries
Streamable HTTP first, after its OAuth metadata discovery), `session.list_tools()`, then `session.call_tool(...)` for
add(1,2), echo("hello"), [restart point], add(40,2), echo("again"), 0.7 s apart, `client.close_all_sessions()`.
A call that raises is logged and the run goes on. The script switches mcp-use's anonymized telemetry off
(MCP_USE_ANONYMIZED_TELEMETRY=false: it would post to PostHog).

    python mcp_use_client.py URL MARK
Bounded: each call after the restart 10 s, the whole run asyncio.timeout(45), `timeout 60` in restartpy.sh.
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import GAP, around_restart, log, log_raised  # noqa: E402


async def call(session, name, arguments):
    r = await session.call_tool(name, arguments)
    return ("ERROR " if r.isError else "") + str([getattr(c, "text", c) for c in r.content])


async def main(url, mark):
    from mcp_use import MCPClient

    client = MCPClient.from_dict({"mcpServers": {"restartpy": {"url": url}}})
    try:
        async with asyncio.timeout(45):
            session = await client.create_session("restartpy")
            log("connected; tools", [t.name for t in await session.list_tools()])
            await asyncio.sleep(GAP)
            await around_restart(mark, lambda n, a: call(session, n, a))
            log("closing")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
    finally:
        await client.close_all_sessions()
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

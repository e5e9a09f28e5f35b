"""langchain-mcp-adapters (PyPI, on the Python SDK mcp 1.x it pins) as an MCP client, the way its README uses it:
`MultiServerMCPClient({name: {"transport": T, "url": U}})`, `await client.get_tools()`, then each LangChain tool
invoked (`await tool.ainvoke(args)`), no LLM: add(1,2), echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py
CALLS), 0.1 s apart. No callbacks (the adapter's default: no progress callback, so no progressToken), no session
kept open: by design the adapter opens a NEW MCP session for get_tools() and for every tool call (connect,
initialize, ..., close) unless the caller holds one with `client.session(name)`.

    python langchain_client.py streamable_http http://127.0.0.1:PORT/mcp
    python langchain_client.py sse http://127.0.0.1:PORT/sse

Bounded: asyncio.timeout(30). Runs in agents/.venv-langchain (requirements-langchain.txt).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def main(transport: str, url: str) -> None:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    async with asyncio.timeout(30):
        client = MultiServerMCPClient({"agents": {"transport": transport, "url": url}})
        tools = {t.name: t for t in await client.get_tools()}
        log("tools", list(tools))
        for name, arguments in CALLS:
            out = await tools[name].ainvoke(arguments)
            log(name, arguments, "->", [c.get("text") for c in out] if isinstance(out, list) else out)
            await asyncio.sleep(0.1)
    log("done")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

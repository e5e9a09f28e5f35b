"""AutoGen (PyPI `autogen-ext[mcp]`, on the Python SDK mcp it allows: mcp 1.x here) as an MCP client without an LLM:
`async with McpWorkbench(server_params) as wb:` (its actor connects and initializes), `await wb.list_tools()`, then
`await wb.call_tool(name, args)` for add(1,2), echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py CALLS),
0.1 s apart, then the `async with` block ends (stop). McpWorkbench is what an AssistantAgent is given as its
`workbench` in AutoGen's docs; the agent calls these same two methods. No progress callback (no progressToken).

    python autogen_client.py streamable-http http://127.0.0.1:PORT/mcp   (StreamableHttpServerParams)
    python autogen_client.py sse http://127.0.0.1:PORT/sse               (SseServerParams)

Bounded: asyncio.timeout(30). Runs in agents2/.venv-autogen (requirements-autogen.txt).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def main(transport: str, url: str) -> None:
    from autogen_ext.tools.mcp import McpWorkbench, SseServerParams, StreamableHttpServerParams

    params = SseServerParams(url=url) if transport == "sse" else StreamableHttpServerParams(url=url)
    async with asyncio.timeout(30):
        async with McpWorkbench(server_params=params) as wb:
            log("tools", [t["name"] for t in await wb.list_tools()])
            for name, arguments in CALLS:
                r = await wb.call_tool(name, arguments)
                log(name, arguments, "->", r.to_text()[:120], "error" if r.is_error else "")
                await asyncio.sleep(0.1)
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

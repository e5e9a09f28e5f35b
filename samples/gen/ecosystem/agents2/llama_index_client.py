"""llama-index-tools-mcp (PyPI, on the Python SDK mcp 2.x) as an MCP client, the way its README uses it without an
LLM: `McpToolSpec(client=BasicMCPClient(URL))`, `await spec.to_tool_list_async()` (tools/list), then each
LlamaIndex FunctionTool called (`await tool.acall(**args)`): add(1,2), echo("hello"), slow_count(3), add(40,2)
(../pysdk_tools.py CALLS), 0.1 s apart. BasicMCPClient opens a NEW MCP session (mcp `ClientSession` over
`streamable_http_client`, or `sse_client` when the URL path ends in /sse) for every list and every call, and passes
no progress callback from a FunctionTool (so no progressToken).

    python llama_index_client.py http://127.0.0.1:PORT/mcp     (or .../sse: the legacy HTTP+SSE transport)

Bounded: asyncio.timeout(30). Runs in agents2/.venv-llama-index (requirements-llama-index.txt).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


async def main(url: str) -> None:
    from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

    async with asyncio.timeout(30):
        spec = McpToolSpec(client=BasicMCPClient(url))
        tools = {t.metadata.name: t for t in await spec.to_tool_list_async()}
        log("tools", list(tools))
        for name, arguments in CALLS:
            out = await tools[name].acall(**arguments)
            log(name, arguments, "->", str(out.content)[:120])
            await asyncio.sleep(0.1)
    log("done")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

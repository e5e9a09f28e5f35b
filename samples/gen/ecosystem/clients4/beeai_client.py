"""clients4 driver of BeeAI Framework's MCP tools (beeai-framework MCPTool; no model, no agent run): the
framework's documented pattern, MCPTool.from_client(streamablehttp_client(URL)) (or sse_client for a legacy /sse
URL), which opens one shared session through its MCPSessionProvider and lists the tools; each tool is run as an
agent's tool step runs it (tool.run(input)): add(1, 2), slow_count(3), fail("boom"). Dropping the tools (their
__del__) releases the shared session; the driver then waits a second so the provider's task can close it.

    python beeai_client.py URL [sse]
"""
import asyncio
import gc
import sys

from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamablehttp_client

from beeai_framework.tools.mcp import MCPTool

CALLS = (("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("fail", {"reason": "boom"}))


async def main(url, sse):
    tools = await MCPTool.from_client(sse_client(url) if sse else streamablehttp_client(url))
    by_name = {t.name: t for t in tools}
    print("tools:", sorted(by_name))
    for name, args in CALLS:
        try:
            out = await by_name[name].run(args)
            print(name, "->", out.get_text_content()[:200])
        except Exception as e:  # the agent would see a ToolError
            print(name, "raised", type(e).__name__, str(e)[:200])
    del tools, by_name
    gc.collect()
    await asyncio.sleep(1)
    print("released")


asyncio.run(main(sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "sse"))

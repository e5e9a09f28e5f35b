"""pydantic-ai (PyPI pydantic-ai-slim[mcp]) as an MCP client: an Agent with an `MCPToolset(url)` toolset (the
documented way since pydantic-ai 2: `MCPServerStreamableHTTP` and `MCPServerSSE` are removed and point to
`MCPToolset`, which is built on the FastMCP 4 `Client` and picks the transport from the URL), run offline with a
`FunctionModel` scripted to call one tool per model turn: add(1,2), echo("hello"), slow_count(3), add(40,2)
(../pysdk_tools.py CALLS), then answer "done" (5 model turns). Everything else is the toolset's defaults (tools
list cached, no progress handler).

    python pydantic_ai_client.py http://127.0.0.1:PORT/mcp

Bounded: asyncio.timeout(30). Runs in agents/.venv-pydantic-ai (requirements-pydantic-ai.txt).
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)


def script(messages, info):
    """The offline model: the next call of CALLS after as many tool returns as the history holds, then text."""
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart

    done = sum(1 for m in messages for p in m.parts if isinstance(p, ToolReturnPart))
    log("model turn", done, "tools offered:", [t.name for t in info.function_tools])
    if done < len(CALLS):
        name, arguments = CALLS[done]
        return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=f"call_{done}")])
    return ModelResponse(parts=[TextPart("done")])


async def main(url: str) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.messages import ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    async with asyncio.timeout(30):
        agent = Agent(FunctionModel(script), toolsets=[MCPToolset(url)])
        async with agent:
            result = await agent.run("call the tools")
    for m in result.all_messages():
        for p in m.parts:
            if isinstance(p, ToolReturnPart):
                log(p.tool_name, "->", p.content)
    log("output", result.output)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

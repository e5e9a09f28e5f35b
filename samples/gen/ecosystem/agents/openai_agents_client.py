"""The OpenAI Agents SDK (PyPI openai-agents, on the Python SDK mcp 2.x) as an MCP client: an Agent with
`mcp_servers=[MCPServerStreamableHttp({"url": U}, cache_tools_list=C)]`, run by `Runner.run` offline: the Agent's
model is a `Model` subclass of ours (no network) that returns one scripted function call per turn, add(1,2),
echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py CALLS), then a final message (5 model turns). The SDK
lists the server's tools before every model turn unless cache_tools_list is set (its default: not set). Tracing
is disabled (it would export to OpenAI's servers); no OpenAI client is ever made.

    python openai_agents_client.py http://127.0.0.1:PORT/mcp [--cache]

Bounded: asyncio.timeout(30). Runs in agents/.venv-openai-agents (requirements-openai-agents.txt).
"""

import asyncio
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)

from agents import Agent, Model, ModelResponse, Runner, Usage, set_tracing_disabled  # noqa: E402
from agents.mcp import MCPServerStreamableHttp  # noqa: E402
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText  # noqa: E402


class ScriptedModel(Model):
    """The next call of CALLS after as many function_call_output items as the input holds, then a message."""

    async def get_response(self, system_instructions, input, model_settings, tools, output_schema, handoffs,
                           tracing, *, previous_response_id, conversation_id, prompt):
        items = input if isinstance(input, list) else []
        done = sum(1 for i in items if (i.get("type") if isinstance(i, dict) else getattr(i, "type", None))
                   == "function_call_output")
        log("model turn", done, "tools offered:", [t.name for t in tools])
        if done < len(CALLS):
            name, arguments = CALLS[done]
            out = [ResponseFunctionToolCall(id=f"fc_{done}", call_id=f"call_{done}", name=name,
                                            arguments=json.dumps(arguments), type="function_call", status="completed")]
        else:
            out = [ResponseOutputMessage(id="msg_done", role="assistant", status="completed", type="message",
                                         content=[ResponseOutputText(text="done", type="output_text", annotations=[])])]
        return ModelResponse(output=out, usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError("Runner.run does not stream")


async def main(url: str, cache: bool) -> None:
    set_tracing_disabled(True)
    async with asyncio.timeout(30):
        async with MCPServerStreamableHttp({"url": url}, cache_tools_list=cache, name="agents-py") as server:
            agent = Agent(name="agents-openai", model=ScriptedModel(), mcp_servers=[server])
            result = await Runner.run(agent, "call the tools", max_turns=8)
    for item in result.new_items:
        if item.type == "tool_call_output_item":
            log("tool output ->", item.output)
    log("output", result.final_output)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "--cache" in sys.argv[2:]))

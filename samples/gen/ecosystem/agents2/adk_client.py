"""Google ADK (PyPI `google-adk[mcp]`, on the Python SDK mcp 2.x) as an MCP client, offline: an `LlmAgent` whose
tools are one `McpToolset(connection_params=...)`, run by ADK's `Runner` (InMemorySessionService) with a scripted
model of ours (a `BaseLlm` subclass, no network, no API key) that answers each turn with one function call: add(1,2),
echo("hello"), slow_count(3), add(40,2) (../pysdk_tools.py CALLS), then a final text. Everything else is ADK's
default: no tool_list_cache_ttl_seconds (yet the wire shows one tools/list for the run's five model turns), MCP
sessions pooled by headers in its MCPSessionManager (one session for the run), no progress callback (no progressToken),
DELETE at `toolset.close()`.

    python adk_client.py streamable-http http://127.0.0.1:PORT/mcp   (StreamableHTTPConnectionParams)
    python adk_client.py sse http://127.0.0.1:PORT/sse               (SseConnectionParams)

Bounded: asyncio.timeout(30). Runs in agents2/.venv-google-adk (requirements-google-adk.txt); agents2.sh switches
OpenTelemetry off (OTEL_SDK_DISABLED=true).
"""

import asyncio
import os
import sys
from typing import AsyncGenerator

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import CALLS, log  # noqa: E402  (../pysdk_tools.py)

from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.genai import types  # noqa: E402


class ScriptedModel(BaseLlm):
    """Turn k (k < len(CALLS)) asks for CALLS[k]; the turn after the last call answers with text."""

    model: str = "scripted"
    turn: int = 0

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False
                                     ) -> AsyncGenerator[LlmResponse, None]:
        offered = sorted(llm_request.tools_dict) if llm_request.tools_dict else []
        log("model turn", self.turn, "tools offered", offered)
        if self.turn < len(CALLS):
            name, args = CALLS[self.turn]
            part = types.Part(function_call=types.FunctionCall(id=f"call-{self.turn}", name=name, args=args))
        else:
            part = types.Part(text="done")
        self.turn += 1
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


async def main(transport: str, url: str) -> None:
    from google.adk.agents import LlmAgent
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools.mcp_tool import McpToolset, SseConnectionParams, StreamableHTTPConnectionParams

    params = SseConnectionParams(url=url) if transport == "sse" else StreamableHTTPConnectionParams(url=url)
    toolset = McpToolset(connection_params=params)
    agent = LlmAgent(name="agents2", model=ScriptedModel(), instruction="Use the tools.", tools=[toolset])
    sessions = InMemorySessionService()
    runner = Runner(app_name="agents2", agent=agent, session_service=sessions)
    try:
        async with asyncio.timeout(30):
            s = await sessions.create_session(app_name="agents2", user_id="u")
            msg = types.Content(role="user", parts=[types.Part(text="go")])
            async for ev in runner.run_async(user_id="u", session_id=s.id, new_message=msg):
                for p in (ev.content.parts if ev.content else []) or []:
                    if p.function_response:
                        log(p.function_response.name, "->", str(p.function_response.response)[:120])
                    elif p.text:
                        log("text", p.text)
    finally:
        await toolset.close()
        await runner.close()
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

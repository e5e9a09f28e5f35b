"""Google ADK 2.13.0 (`google-adk[mcp]`, mcp 2.3.0; agents2/.venv-google-adk) as a restartpy client, offline: an
`LlmAgent` whose tools are one `McpToolset(StreamableHTTPConnectionParams(url=U))`, run by ADK's `Runner`
(InMemorySessionService) with a scripted model of ours (a `BaseLlm` subclass, no network, no API key). Each call is
one agent run (one user turn of the same ADK session: the model asks for the tool, then answers text): add(1,2),
echo("hello"), [restart point], add(40,2), echo("again"), 0.7 s apart. The toolset (and ADK's MCPSessionManager,
which pools the MCP session) lives across the runs and is closed at the end (`toolset.close()`). A run that raises is
logged and the next turn goes on (an application serving a user would do so).

    python adk_client.py URL MARK
Bounded: each run after the restart 10 s, the whole run asyncio.timeout(45), `timeout 60` in restartpy.sh; the script
switches OpenTelemetry off and keeps google-auth off the network (OTEL_SDK_DISABLED, GOOGLE_API_USE_CLIENT_CERTIFICATE,
NO_GCE_CHECK).
"""

import asyncio
import os
import sys
from typing import AsyncGenerator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import around_restart, log, log_raised  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.genai import types  # noqa: E402


class ScriptedModel(BaseLlm):
    """Asks for `call` (name, args) when the turn's last content is the user's message, else answers text."""
    model: str = "scripted"
    call: tuple = ()
    n: int = 0

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False
                                     ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1] if llm_request.contents else None
        answered = bool(last and any(p.function_response for p in (last.parts or [])))
        if not answered:
            name, args = self.call
            self.n += 1
            part = types.Part(function_call=types.FunctionCall(id=f"call-{self.n}", name=name, args=args))
        else:
            part = types.Part(text="done")
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


async def turn(runner, sessions_id, model, name, arguments):
    model.call = (name, arguments)
    out = []
    msg = types.Content(role="user", parts=[types.Part(text=f"call {name}")])
    async for ev in runner.run_async(user_id="u", session_id=sessions_id, new_message=msg):
        for p in (ev.content.parts if ev.content else []) or []:
            if p.function_response:
                out.append(str(p.function_response.response)[:160])
    return out


async def main(url, mark):
    from google.adk.agents import LlmAgent
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools.mcp_tool import McpToolset, StreamableHTTPConnectionParams

    toolset = McpToolset(connection_params=StreamableHTTPConnectionParams(url=url))
    model = ScriptedModel()
    agent = LlmAgent(name="restartpy", model=model, instruction="Use the tools.", tools=[toolset])
    sessions = InMemorySessionService()
    runner = Runner(app_name="restartpy", agent=agent, session_service=sessions)
    try:
        async with asyncio.timeout(45):
            s = await sessions.create_session(app_name="restartpy", user_id="u")
            await around_restart(mark, lambda n, a: turn(runner, s.id, model, n, a))
            log("closing")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)
    finally:
        await toolset.close()
        await runner.close()
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

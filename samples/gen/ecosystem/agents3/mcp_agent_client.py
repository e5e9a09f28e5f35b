"""mcp-agent (PyPI `mcp-agent`, LastMile AI; 0.2.6 on mcp 1.30.0: 0.2.6 does not import on mcp 2.x) as an MCP client
without an LLM: an MCPApp whose Settings are built here (the agents3 server as its only MCP server, transport
streamable_http or sse, one root; usage telemetry, OpenTelemetry and the logger off), an elicitation callback of ours
that accepts with a fixed name (the app's `elicitation_callback`, as a console UI would answer), no human-input
callback, no LLM configured. One Agent(server_names=["agents3"]); its MCP API called directly, as the agent's LLM
would through tool calls: list_tools, call_tool add(1,2), slow_count(3), log_steps(3), ask_llm (mcp-agent answers
the server's sampling/createMessage itself: with no upstream session it samples locally, which with no model
preferences in the request and no LLM is an error it returns to the server), client_roots (roots/list answered from
the config), ask_user (elicitation/create answered by our callback), then list_resources, read_resource info://server,
list_prompts, get_prompt review, 0.1 s apart.

    python mcp_agent_client.py streamable_http|sse URL

Bounded: asyncio.timeout(40).
"""

import asyncio
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


CALLS = [("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("log_steps", {"n": 3}),
         ("ask_llm", {"question": "What is 6 times 7?"}), ("client_roots", {}), ("ask_user", {})]


async def elicit(request):
    from mcp.types import ElicitResult

    log("elicitation asked:", request.message)
    return ElicitResult(action="accept", content={"name": "agents3-user"})


async def main(transport, url):
    from mcp_agent.agents.agent import Agent
    from mcp_agent.app import MCPApp
    from mcp_agent.config import (LoggerSettings, MCPRootSettings, MCPServerSettings, MCPSettings,
                                  OpenTelemetrySettings, Settings, UsageTelemetrySettings)

    settings = Settings(
        execution_engine="asyncio",
        logger=LoggerSettings(type="none", transports=["none"], level="error"),
        otel=OpenTelemetrySettings(enabled=False),
        usage_telemetry=UsageTelemetrySettings(enabled=False),
        mcp=MCPSettings(servers={"agents3": MCPServerSettings(
            name="agents3", transport=transport, url=url, read_timeout_seconds=20,
            roots=[MCPRootSettings(uri="file:///srv/agents3-project", name="agents3-project",
                                  server_uri_alias="file:///srv/agents3-project")])}),
    )
    app = MCPApp(name="agents3", settings=settings, elicitation_callback=elicit)
    async with asyncio.timeout(40):
        async with app.run():
            agent = Agent(name="a3", instruction="no LLM", server_names=["agents3"])
            async with agent:
                tools = await agent.list_tools()
                log("tools", [t.name for t in tools.tools])
                for name, args in CALLS:
                    r = await agent.call_tool(name, args)
                    log(name, args, "->", r.isError, [getattr(c, "text", c)[:120] for c in r.content])
                    await asyncio.sleep(0.1)
                log("resources", [str(r.uri) for r in (await agent.list_resources()).resources])
                await asyncio.sleep(0.1)
                res = await agent.read_resource("info://server", "agents3")
                log("resource", [getattr(c, "text", c) for c in res.contents])
                await asyncio.sleep(0.1)
                log("prompts", [p.name for p in (await agent.list_prompts()).prompts])
                await asyncio.sleep(0.1)
                pr = await agent.get_prompt("review", {"code": "print(1)"}, "agents3")
                log("prompt", [m.content.text[:40] for m in pr.messages])
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

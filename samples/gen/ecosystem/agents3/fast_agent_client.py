"""fast-agent (PyPI `fast-agent-mcp`; on Python 3.11 the newest release is 0.2.36, built on mcp 1.10.1) as an MCP
client without an LLM: one agent whose model is fast-agent's own `passthrough` model, with the agents3 server as its
only MCP server (config written next to a run directory: transport http or sse, `sampling: {model: passthrough}`,
one root). The agent loop is driven with the passthrough model's tool-call syntax (`***CALL_TOOL agents3-NAME {json}`):
each message makes the agent call that tool, as an LLM's tool call would. Then the agent's resource and prompt API.

Run order (one session): tools listed at start (by fast-agent), add(1,2), slow_count(3), log_steps(3),
ask_llm("...") (the server's sampling/createMessage answered by fast-agent's sampling LLM: passthrough, which echoes
the request's last message), client_roots() (roots/list answered from the config), ask_user() (elicitation/create:
fast-agent 0.2.36 declares no elicitation capability; what the SDK's ClientSession answers is on the wire),
then get_resource info://server, get_prompt review, 0.1 s apart.

    python fast_agent_client.py http|sse URL RUNDIR

Bounded: asyncio.timeout(40). Telemetry: the config has `otel: {enabled: false}` and no API keys.
"""

import asyncio
import json
import os
import sys
import time

T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


CONFIG = """\
default_model: passthrough
otel:
  enabled: false
logger:
  type: none
  progress_display: false
  show_chat: false
  show_tools: false
mcp:
  servers:
    agents3:
      transport: {transport}
      url: {url}
      read_timeout_seconds: 20
      sampling:
        model: passthrough
      roots:
        - uri: file:///srv/agents3-project
          name: agents3-project
"""

CALLS = [("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("log_steps", {"n": 3}),
         ("ask_llm", {"question": "What is 6 times 7?"}), ("client_roots", {}), ("ask_user", {})]


async def main(transport, url, rundir):
    os.makedirs(rundir, exist_ok=True)
    cfg = os.path.join(rundir, "fastagent.config.yaml")
    with open(cfg, "w") as f:
        f.write(CONFIG.format(transport=transport, url=url))
    os.chdir(rundir)
    from mcp_agent.core.fastagent import FastAgent

    fast = FastAgent("agents3", config_path=cfg, parse_cli_args=False)

    @fast.agent(name="a3", instruction="passthrough", servers=["agents3"], model="passthrough")
    async def _unused():
        pass

    async with asyncio.timeout(40):
        async with fast.run() as app:
            agent = app.a3
            tools = await agent.list_tools()
            log("tools", [t.name for t in tools.tools])
            for name, args in CALLS:
                out = await agent.send(f"***CALL_TOOL agents3-{name} {json.dumps(args)}")
                log(name, args, "->", out[:160].replace("\n", " "))
                await asyncio.sleep(0.1)
            res = await agent.get_resource("info://server", "agents3")
            log("resource", [getattr(c, "text", c) for c in res.contents])
            await asyncio.sleep(0.1)
            pr = await agent.get_prompt("review", {"code": "print(1)"}, "agents3")
            log("prompt", [m.content.text[:40] for m in pr.messages])
    log("closed")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))

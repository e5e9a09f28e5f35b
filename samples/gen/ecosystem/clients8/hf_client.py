"""clients8 driver for huggingface_hub 2.4.0's tiny-agents Agent (huggingface_hub.Agent over its MCPClient, on the
official Python SDK client mcp 1.30.0), the model a scripted OpenAI-compatible stub (llm_stub.py) given as base_url:
Agent(model, servers=[{"type": "http", "url": URL}], base_url=STUB), load_tools() (initialize, tools/list), run(prompt)
(the stub asks for tool calls, the Agent runs them over MCP, the stub answers "done"), cleanup().

    python hf_client.py URL STUB-URL calls|restart
      calls    one run: the stub asks for add(2,3) and slow_count(30)
      restart  a run asking for add only, print PAUSE and wait 6 s (the harness restarts the server), a second run
"""

import asyncio
import sys

from huggingface_hub import Agent


async def turn(agent: Agent, prompt: str) -> None:
    try:
        async for item in agent.run(prompt):
            if isinstance(item, dict) and item.get("role") == "tool":
                print(f"{item.get('name')} -> {str(item.get('content'))[:160]}", flush=True)
            elif hasattr(item, "choices") and item.choices and item.choices[0].delta.content:
                print("model:", item.choices[0].delta.content, flush=True)
    except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
        print(f"run failed: {type(e).__name__}: {str(e)[:200]}", flush=True)


async def main() -> None:
    url, stub, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    agent = Agent(model="stub-model", servers=[{"type": "http", "url": url}], base_url=stub, api_key="none")
    await agent.load_tools()
    print("tools:", ", ".join(t["function"]["name"] if isinstance(t, dict) else t.function.name
                              for t in agent.available_tools), flush=True)
    if mode == "restart":
        await turn(agent, "add only: 2 + 3")
        print("PAUSE", flush=True)
        await asyncio.sleep(6)
        await turn(agent, "add only: again")
    else:
        await turn(agent, "add 2 and 3, then count to 30")
    await agent.cleanup()
    print("closed", flush=True)


if __name__ == "__main__":
    asyncio.run(main())

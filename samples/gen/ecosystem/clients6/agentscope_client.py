"""clients6 driver for agentscope 2.0.11's MCPClient (agentscope.mcp, on the official Python SDK mcp 2.3.0's
high-level `Client` in mode="auto", over `streamable_http_client` with an httpx2 client it owns), used the way an
agentscope agent gets and runs MCP tools, no model: MCPClient(HttpMCPConfig(url)), connect() (stateful), list_tools()
(MCPTool objects), each tool's call() (agentscope passes a progress callback on every call), close().

    python agentscope_client.py URL [stateful|stateless|restart]
      stateful   connect, list_tools, add, slow_count, fail (when the server has it), close
      stateless  is_stateful=False: no connect; list_tools and every call open a client of their own
      restart    stateful: add, pause 6 s (the harness restarts the server), add three times more, close
"""

import asyncio
import sys

from agentscope.mcp import HttpMCPConfig, MCPClient


async def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "stateful"
    client = MCPClient(name="clients6", is_stateful=(mode != "stateless"),
                       mcp_config=HttpMCPConfig(url=url, timeout=20.0))
    if client.is_stateful:
        await client.connect()
    tools = {t.name: t for t in await client.list_tools()}
    print("tools:", ", ".join(sorted(tools)), flush=True)

    async def call(name: str, **kw) -> None:
        tool = tools.get(name) or tools.get(f"mcp__clients6__{name}")
        if tool is None:
            tool = next(t for n, t in tools.items() if n.endswith(name))
        try:
            chunk = await tool.call(**kw)
            print(f"{name} -> {chunk.state} {str(chunk.content)[:200]}", flush=True)
        except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
            print(f"{name} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)

    if mode == "restart":
        await call("add", a=1, b=2)
        await asyncio.sleep(6)
        await call("add", a=3, b=4)
        await call("add", a=5, b=6)
        await call("add", a=7, b=8)
    else:
        await call("add", a=1, b=2)
        await call("slow_count", n=3)
        if any(n.endswith("fail") for n in tools):
            await call("fail", reason="boom")
    if client.is_stateful:
        await client.close()
    print("closed", flush=True)


if __name__ == "__main__":
    asyncio.run(main())

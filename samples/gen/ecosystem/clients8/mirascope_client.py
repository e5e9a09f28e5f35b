"""clients8 driver for mirascope 2.8.2's MCP layer (mirascope.llm.mcp, on the official Python SDK client mcp 1.30.0),
no model: `async with llm.mcp.streamable_http_client(url) as client` (initialize), `await client.list_tools()` (the
tools as mirascope AsyncTools), each call through an AsyncToolkit's execute(ToolCall) as mirascope's tool loop runs
a model's tool call, then the context closes.

    python mirascope_client.py URL calls|restart
      calls    add, slow_count(30) (3 s, progress on the server side), fail
      restart  add, print PAUSE and wait 6 s (the harness restarts the server), add three times more
"""

import asyncio
import json
import sys

from mirascope import llm
from mirascope.llm.content.tool_call import ToolCall


async def main() -> None:
    url, mode = sys.argv[1], sys.argv[2]
    async with llm.mcp.streamable_http_client(url) as client:
        tools = await client.list_tools()
        print("tools:", ", ".join(t.name for t in tools), flush=True)
        kit = llm.AsyncToolkit(tools)
        n = 0

        async def call(name: str, **kw) -> None:
            nonlocal n
            n += 1
            try:
                out = await kit.execute(ToolCall(id=f"call_{n}", name=name, args=json.dumps(kw)))
                print(f"{name} -> {str(out.result)[:160]} error={out.error!r}"[:240], flush=True)
            except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
                print(f"{name} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)

        if mode == "restart":
            await call("add", a=1, b=2)
            print("PAUSE", flush=True)
            await asyncio.sleep(6)
            for i in range(3):
                await call("add", a=i, b=10)
        else:
            await call("add", a=2, b=3)
            await call("slow_count", n=30)
            await call("fail", reason="on purpose")
    print("closed", flush=True)


if __name__ == "__main__":
    asyncio.run(main())

"""clients5 driver for upsonic 0.77.3's MCPHandler (upsonic.tools.mcp, on the official Python SDK mcp 2.3.0's
streamable_http_client and ClientSession), used the way an upsonic Agent gets and runs its MCP tools, no model:
get_tools() (sync: a temporary connection discovers the tools and closes), then each MCPTool's execute() (the first
call reconnects a persistent session on the caller's loop, later calls reuse it), close().

    python upsonic_client.py URL [http|restart]
      restart  add, pause 6 s (the harness restarts the server), add three times more, close
"""

import asyncio
import sys

from upsonic.tools.mcp import MCPHandler


def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "http"
    handler = MCPHandler(url=url, transport="streamable-http", timeout_seconds=20)
    tools = {t.name: t for t in handler.get_tools()}
    print("tools:", ", ".join(sorted(tools)), flush=True)

    async def run() -> None:
        async def call(name: str, **kw) -> None:
            try:
                print(f"{name} -> {str(await tools[name].execute(**kw))[:200]}", flush=True)
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
            if "fail" in tools:
                await call("fail", reason="boom")
        await handler.close()
        print("closed", flush=True)

    asyncio.run(run())


if __name__ == "__main__":
    main()

"""clients5 driver for camel-ai 0.2.90's MCPToolkit (camel.toolkits.MCPToolkit over camel.utils.mcp_client.MCPClient,
on the official Python SDK mcp 1.30.0: camel imports `streamablehttp_client`, which mcp 2 removed), used the way a
ChatAgent gets its tools, no model: MCPToolkit(config_dict) connect() (initialize and tools/list), get_tools() (camel
FunctionTool objects, listed), each tool called with MCPToolkit.call_tool (FunctionTool.async_call from a
running loop hung on the third call in a trial: it runs the sync wrapper in an executor that starts another loop),
disconnect().

    python camel_client.py URL [auto|http|sse|restart]
      auto     the config names only the URL: camel tries Streamable HTTP, and on failure falls back to HTTP+SSE
      http     "type": "streamable_http" (no fallback)
      sse      "type": "sse"
      restart  auto; add, pause 6 s (the harness restarts the server), add three times more
"""

import asyncio
import sys

from camel.toolkits import MCPToolkit


async def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "auto"
    cfg: dict = {"url": url}
    if mode == "http":
        cfg["type"] = "streamable_http"
    elif mode == "sse":
        cfg["type"] = "sse"
    toolkit = MCPToolkit(config_dict={"mcpServers": {"clients5": cfg}}, timeout=20, max_retries=1)
    await toolkit.connect()
    tools = {t.get_function_name(): t for t in toolkit.get_tools()}
    print("tools:", ", ".join(sorted(tools)), flush=True)

    async def call(name: str, **kw) -> None:
        try:
            print(f"{name} -> {str(await toolkit.call_tool(name, kw))[:200]}", flush=True)
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
    await toolkit.disconnect()
    print("disconnected")


if __name__ == "__main__":
    asyncio.run(main())

"""clients6 driver for qwen-agent 0.0.34's MCPManager (qwen_agent.tools.mcp_manager, on the official Python SDK
mcp 1.x: it imports `streamablehttp_client`, which mcp 2 removed), used the way a qwen-agent Assistant turns an
`mcpServers` config into tools, no model: MCPManager().initConfig(config) (connects, lists tools and resources, one
session per server), each tool's call(json) (qwen-agent pings the session before every call and reconnects with a
new session when the ping fails), shutdown().

    python qwen_client.py URL [streamable-http|sse] [calls|restart]
      streamable-http  the config's "type": "streamable-http"
      sse              no "type" (qwen-agent's default: the HTTP+SSE client)
      calls    add, slow_count, fail (when the server has it)
      restart  add, pause 6 s (the harness restarts the server), add three times more
"""

import json
import sys
import time

from qwen_agent.tools.mcp_manager import MCPManager


def main() -> None:
    url = sys.argv[1]
    kind = sys.argv[2] if len(sys.argv) > 2 else "streamable-http"
    mode = sys.argv[3] if len(sys.argv) > 3 else "calls"
    server = {"url": url}
    if kind != "sse":
        server["type"] = kind
    manager = MCPManager()
    tools = {t.name.split("-", 1)[1]: t for t in manager.initConfig({"mcpServers": {"clients6": server}})}
    print("tools:", ", ".join(sorted(tools)), flush=True)

    def call(name: str, **kw) -> None:
        try:
            print(f"{name} -> {str(tools[name].call(json.dumps(kw)))[:200]}", flush=True)
        except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
            print(f"{name} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)

    if mode == "restart":
        call("add", a=1, b=2)
        time.sleep(6)
        call("add", a=3, b=4)
        call("add", a=5, b=6)
        call("add", a=7, b=8)
    else:
        call("add", a=1, b=2)
        call("slow_count", n=3)
        if "fail" in tools:
            call("fail", reason="boom")
    manager.shutdown()
    print("closed", flush=True)


if __name__ == "__main__":
    main()

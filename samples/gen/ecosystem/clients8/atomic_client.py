"""clients8 driver for atomic-agents 2.15.0's MCP connector (atomic_agents.connectors.mcp, on the official Python SDK
client mcp 1.30.0), no model: fetch_mcp_tools(BASE, MCPTransportType.HTTP_STREAM) (the library appends "/mcp/" to
the endpoint it is given, lists the tools over its own session, closes it), then each generated BaseTool's run(input)
as an atomic-agents agent runs a tool (no client_session given: the library's default opens a new connection and
session per tool call).

    python atomic_client.py BASE-URL calls|restart
      calls    add, slow_count(30) (3 s, progress on the server side), fail
      restart  add, print PAUSE and wait 6 s (the harness restarts the server), add three times more
"""

import sys
import time

from atomic_agents.connectors.mcp import MCPTransportType, fetch_mcp_tools


def main() -> None:
    base, mode = sys.argv[1], sys.argv[2]
    tools = {t.mcp_tool_name: t for t in fetch_mcp_tools(base, MCPTransportType.HTTP_STREAM)}
    print("tools:", ", ".join(sorted(tools)), flush=True)

    def call(name: str, **kw) -> None:
        if name not in tools:
            print(f"{name}: not among the server's tools, not called", flush=True)
            return
        cls = tools[name]
        try:
            out = cls().run(cls.input_schema(tool_name=name, **kw))
            print(f"{name} -> {str(out)[:180]}", flush=True)
        except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
            print(f"{name} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)

    if mode == "restart":
        call("add", a=1, b=2)
        print("PAUSE", flush=True)
        time.sleep(6)
        for i in range(3):
            call("add", a=i, b=10)
    else:
        call("add", a=2, b=3)
        call("slow_count", n=30)
        call("fail", reason="on purpose")
    print("closed", flush=True)


if __name__ == "__main__":
    main()

"""clients4 driver of praisonaiagents' MCP client layer (no model, no Agent run): MCP(URL) connects and lists the
tools (a Streamable HTTP URL goes to its HTTPStreamMCPClient on the official SDK's streamablehttp_client, a URL
ending in /sse to its SSEMCPClient on sse_client), each tool is a plain callable as an Agent would call it:
add(a=1, b=2), slow_count(n=3), fail(reason="boom"), then MCP.shutdown().

    python praisonai_client.py URL
"""
import sys

from praisonaiagents import MCP

url = sys.argv[1]
mcp = MCP(url, timeout=30)
tools = {getattr(t, "__name__", getattr(t, "name", str(t))): t for t in mcp}
print("tools:", sorted(tools))
for name, args in (("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("fail", {"reason": "boom"})):
    try:
        print(name, "->", tools[name](**args))
    except Exception as e:  # a tool error as the agent would see it
        print(name, "raised", type(e).__name__, str(e)[:200])
mcp.shutdown()
print("shut down")

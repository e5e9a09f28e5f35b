"""clients4 driver of Haystack's MCP integration (mcp-haystack; no model, no Agent run): the tools as a Haystack
Agent's ToolInvoker would call them.

    python haystack_client.py toolset URL        MCPToolset(StreamableHttpServerInfo(URL)).warm_up(), then
                                                 add(1, 2), slow_count(3), fail("boom") through the toolset's tools,
                                                 then close()
    python haystack_client.py toolset-sse URL    the same with SSEServerInfo(URL) (a legacy /sse URL)
    python haystack_client.py restart URL        the toolset: add(1, 2), a 6 s pause (the harness restarts the
                                                 server), add(3, 4), add(5, 6), close()
    python haystack_client.py tools URL          three stand-alone MCPTool objects (add, slow_count, fail) with
                                                 StreamableHttpServerInfo(URL), each warmed up, invoked, closed
"""
import sys
import time

from haystack_integrations.tools.mcp import MCPTool, MCPToolset, SSEServerInfo, StreamableHttpServerInfo

CALLS = (("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3}), ("fail", {"reason": "boom"}))


def invoke(tool, args):
    try:
        print(tool.name, "->", str(tool.invoke(**args))[:200])
    except Exception as e:  # the ToolInvoker would turn this into an error message for the model
        print(tool.name, "raised", type(e).__name__, str(e)[:200])


mode, url = sys.argv[1], sys.argv[2]
if mode == "restart":
    ts = MCPToolset(server_info=StreamableHttpServerInfo(url=url), connection_timeout=20, invocation_timeout=20)
    ts.warm_up()
    tools = {t.name: t for t in ts}
    invoke(tools["add"], {"a": 1, "b": 2})
    time.sleep(6)
    invoke(tools["add"], {"a": 3, "b": 4})
    invoke(tools["add"], {"a": 5, "b": 6})
    try:
        ts.close()
    except Exception as e:
        print("close raised", type(e).__name__, str(e)[:200])
elif mode in ("toolset", "toolset-sse"):
    info = SSEServerInfo(url=url) if mode == "toolset-sse" else StreamableHttpServerInfo(url=url)
    ts = MCPToolset(server_info=info, connection_timeout=20, invocation_timeout=20)
    ts.warm_up()
    tools = {t.name: t for t in ts}
    print("tools:", sorted(tools))
    for name, args in CALLS:
        invoke(tools[name], args)
    ts.close()
else:
    for name, args in CALLS:
        t = MCPTool(name=name, server_info=StreamableHttpServerInfo(url=url), connection_timeout=20,
                    invocation_timeout=20)
        t.warm_up()
        invoke(t, args)
        t.close()
print("closed")

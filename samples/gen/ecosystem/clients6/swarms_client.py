"""clients6 driver for swarms 16.0.3's MCPManager (swarms.tools.mcp_manager, the object a swarms Agent holds for its
MCP servers; on the official Python SDK mcp 2.3.0's `streamable_http_client`/`sse_client` and `ClientSession`), used
the way an Agent runs a model's tool calls, no model: MCPManager(mcp_url=URL), get_tools() (OpenAI function schemas,
one session), then execute_tool_calls(response) with an OpenAI-style tool-call list as a model would return it
(swarms groups the calls per server and runs them in one session), and call_tool() (a session per call).

    python swarms_client.py URL [batch|single]
      batch   get_tools, execute_tool_calls([add, slow_count, fail (when the server has it)])
      single  get_tools, call_tool add, call_tool slow_count, call_tool fail (when the server has it)
"""

import json
import sys

from swarms.tools.mcp_manager import MCPManager


def main() -> None:
    url = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "batch"
    manager = MCPManager(mcp_url=url, agent_name="clients6", timeout=20, retry_attempts=1)
    names = [t["function"]["name"] for t in manager.get_tools()]
    print("tools:", ", ".join(sorted(names)), flush=True)
    calls = [("add", {"a": 1, "b": 2}), ("slow_count", {"n": 3})]
    if "fail" in names:
        calls.append(("fail", {"reason": "boom"}))
    if mode == "batch":
        response = [{"id": f"call_{i}", "type": "function",
                     "function": {"name": n, "arguments": json.dumps(a)}} for i, (n, a) in enumerate(calls)]
        for r in manager.execute_tool_calls(response):
            print(f"{r['tool']} -> {str(r.get('result', r.get('error')))[:200]}", flush=True)
    else:
        for n, a in calls:
            try:
                print(f"{n} -> {str(manager.call_tool(n, a))[:200]}", flush=True)
            except Exception as e:  # noqa: BLE001 - the driver reports what the framework raises
                print(f"{n} failed: {type(e).__name__}: {str(e)[:200]}", flush=True)
    print("closed", flush=True)


if __name__ == "__main__":
    main()

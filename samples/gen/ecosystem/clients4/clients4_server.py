"""The official Python SDK (mcp 2.3.0) MCPServer of the clients4 group, under uvicorn, 127.0.0.1 only, HTTP/1.1.
Runs in the sdks group's venv (../sdks/.venv).

    python clients4_server.py PORT --name NAME          streamable_http_app on /mcp (SDK defaults: stateful, SSE
                                                        replies without ids, no event store)
    python clients4_server.py PORT --name NAME --sse    the legacy HTTP+SSE app (GET /sse, POST /messages/?session_id=)

Tools (names, docstrings and signatures are what tools/list puts on the wire):
  add(a, b)        the sum
  slow_count(n)    n steps 0.1 s apart, one notifications/progress per step when the call carries a progressToken
  fail(reason)     raises: the SDK turns the exception into a result with isError true
"""

import argparse
import asyncio

import uvicorn

HOST = "127.0.0.1"


def build(name: str):
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer(name, version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n slowly, reporting progress at each step."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted to {n}"

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails with the given reason."""
        raise RuntimeError(f"fail: {reason}")

    return server


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--name", required=True)
    p.add_argument("--sse", action="store_true")
    a = p.parse_args()
    s = build(a.name)
    app = s.sse_app(host=HOST) if a.sse else s.streamable_http_app(streamable_http_path="/mcp", host=HOST)
    uvicorn.run(app, host=HOST, port=a.port, log_level="warning", lifespan="on")

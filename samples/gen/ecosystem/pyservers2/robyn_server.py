"""Robyn's built-in MCP server (robyn 0.88.0, robyn/mcp.py: its own code, no MCP SDK) with the corpus tools.

    PORT=N python robyn_server.py

`app.mcp` registers one route, POST /mcp, whose handler answers every JSON-RPC message with a JSON object (the
dict the handler returns, which Robyn serialises as application/json). Tools: add(a, b), echo(text),
slow_count(n) (sleeps n x 0.1 s; Robyn's MCP code has no progress notifications or any server-to-client message).
Robyn parses its own command line (sys.argv), so the port comes from the environment.
"""
import asyncio
import os

from robyn import Robyn

app = Robyn(__file__)


@app.mcp.tool(name="add", description="Add two integers",
              input_schema={"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                            "required": ["a", "b"]})
def add(a: int, b: int) -> str:
    return str(a + b)


@app.mcp.tool(name="echo", description="Echo a text",
              input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
def echo(text: str) -> str:
    return text


@app.mcp.tool(name="slow_count", description="Count to n, 0.1 s a step",
              input_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
async def slow_count(n: int) -> str:
    for _ in range(n):
        await asyncio.sleep(0.1)
    return f"counted to {n}"


if __name__ == "__main__":
    app.start(host="127.0.0.1", port=int(os.environ["PORT"]), _check_port=False)

"""falcon-mcp-server 0.2.0 (Falcon 4.4.0, ASGI) under uvicorn: `MCP(...).create_app()`, the plug-in's own
Streamable HTTP resource on /mcp (2026-07-28 only, POST only, JSON replies).

    python falcon_server.py PORT

Tools: add(a,b), echo(text), fail(why) (raises the plug-in's ToolError: an isError result), crash() (raises a
plain exception: the plug-in logs it and reports it without details).
"""

import sys

import uvicorn
from falcon_mcp_server import MCP, ToolError

NUM = {"type": "integer"}
mcp = MCP(name="frameworks2-falcon", version="1.0.0")


async def add(a: int, b: int) -> str:
    return str(a + b)


async def echo(text: str) -> str:
    return text


async def fail(why: str) -> str:
    raise ToolError(f"refused: {why}")


async def crash() -> str:
    raise RuntimeError("the tool broke")


mcp.add_tool(add, description="Add two integers.",
             input_schema={"type": "object", "properties": {"a": NUM, "b": NUM}, "required": ["a", "b"]})
mcp.add_tool(echo, description="Echo the text back.",
             input_schema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
mcp.add_tool(fail, description="Always fails with a tool error.",
             input_schema={"type": "object", "properties": {"why": {"type": "string"}}, "required": ["why"]})
mcp.add_tool(crash, description="Raises an unexpected exception.", input_schema={"type": "object", "properties": {}})

if __name__ == "__main__":
    uvicorn.run(mcp.create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", lifespan="off")

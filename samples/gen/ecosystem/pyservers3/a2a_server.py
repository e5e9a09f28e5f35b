"""python-a2a's MCP server (python-a2a 0.5.10: `python_a2a.mcp.FastMCP`, served by its own FastAPI app
`python_a2a/mcp/transport/fastapi.py` under uvicorn; no MCP SDK) with the corpus tools.

    python a2a_server.py PORT

Its JSON-RPC endpoint is `POST /` (plus REST routes /tools, /tools/{name}, /health ...). It knows tools/list,
tools/call, resources/list and resources/read only: `initialize` is answered with a JSON-RPC error -32601.
"""
import sys

from python_a2a.mcp import FastMCP

mcp = FastMCP(name="mcptap-pyservers3-a2a", version="0.1.0", description="corpus tools")


@mcp.tool()
def add(a: int, b: int) -> str:
    """Add two integers"""
    return str(a + b)


@mcp.tool()
def echo(text: str) -> str:
    """Echo a text"""
    return text


if __name__ == "__main__":
    mcp.run(transport="fastapi", host="127.0.0.1", port=int(sys.argv[1]))

"""Arcade's MCP server (arcade-mcp-server 1.32.1: `MCPApp`, its own Streamable HTTP transport
arcade_mcp_server/transports/http_streamable.py + http_session_manager.py, a port of the SDK's design that imports no
MCP SDK, mounted at /mcp in its FastAPI worker under uvicorn) with the corpus tools.

    python arcade_server.py PORT

The worker builds its session manager with json_response=True: every POST reply is application/json; initialize mints
Mcp-Session-Id. Tools: add(a, b), echo(text), slow_count(n) (n steps 0.1 s apart, context.progress.report each step).
"""
import asyncio
import sys
from typing import Annotated

from arcade_mcp_server import Context, MCPApp

app = MCPApp(name="mcptap_pyservers3_arcade", version="0.1.0", log_level="WARNING")


@app.tool
def add(a: Annotated[int, "first"], b: Annotated[int, "second"]) -> str:
    """Add two integers"""
    return str(a + b)


@app.tool
def echo(text: Annotated[str, "text to echo"]) -> str:
    """Echo a text"""
    return text


@app.tool
async def slow_count(context: Context, n: Annotated[int, "steps"]) -> str:
    """Count to n, 0.1 s a step, with a progress report per step"""
    for i in range(1, n + 1):
        await asyncio.sleep(0.1)
        await context.progress.report(i, n, f"step {i}")
    return f"counted to {n}"


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), transport="http")

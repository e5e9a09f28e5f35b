"""zeromcp's server (zeromcp 1.10.3: pure standard library, http.server's ThreadingHTTPServer, no MCP SDK) with the
corpus tools.

    python zero_server.py PORT

Streamable HTTP on /mcp (every reply application/json, a fresh Mcp-Session-Id from each initialize, GET /mcp
answered 405, DELETE 204) and the legacy HTTP+SSE transport on /sse (GET /sse: `endpoint` event
`/sse?session=...`; POSTs there answered 202, replies on the stream). Tools: add(a, b), echo(text), slow_count(n)
(sleeps n x 0.1 s; zeromcp sends no progress notifications).
"""
import sys
import time
from typing import Annotated

from zeromcp import McpServer

mcp = McpServer("mcptap-pyservers2-zeromcp")


@mcp.tool
def add(a: Annotated[int, "first"], b: Annotated[int, "second"]) -> str:
    """Add two integers"""
    return str(a + b)


@mcp.tool
def echo(text: Annotated[str, "text to echo"]) -> str:
    """Echo a text"""
    return text


@mcp.tool
def slow_count(n: Annotated[int, "steps"]) -> str:
    """Count to n, 0.1 s a step"""
    for _ in range(n):
        time.sleep(0.1)
    return f"counted to {n}"


if __name__ == "__main__":
    mcp.serve("127.0.0.1", int(sys.argv[1]))  # background=True (the default): a ThreadingHTTPServer in a thread
    while True:
        time.sleep(1)

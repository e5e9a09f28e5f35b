"""A stateful Streamable HTTP MCP server as its README writes it, with the tools add(a, b) and echo(text), on
127.0.0.1:PORT at /mcp. KIND picks the library (from whichever venv runs this file):
  fastmcp  FastMCP (PyPI `fastmcp`, 2.x or 3.x): FastMCP(NAME), mcp.run(transport="http", host, port)
  sdk      the official Python SDK 1.x's FastMCP (mcp.server.fastmcp), mcp.run(transport="streamable-http")
Both sit on the Python SDK's StreamableHTTPSessionManager with its defaults (sessions in the process's memory).
NAME says which process answered an initialize (boot 1 or 2 of a restart).
    python py_server.py KIND PORT NAME
"""
import sys

kind, port, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]

if kind == "fastmcp":
    from fastmcp import FastMCP

    mcp = FastMCP(name)
else:
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP(name, host="127.0.0.1", port=port)


@mcp.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if kind == "fastmcp":
    mcp.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
else:
    mcp.run(transport="streamable-http")

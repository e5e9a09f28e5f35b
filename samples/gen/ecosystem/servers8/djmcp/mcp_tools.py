"""Tools auto-discovered by mcp-django-server (mcp_tools.py of an installed app): add, echo, slow (sleeps n s)."""
import time

from mcp_server.decorators import mcp_tool


@mcp_tool(description="Add two numbers")
def add(a: int, b: int):
    return a + b


@mcp_tool(description="Echo text")
def echo(text: str):
    return text


@mcp_tool(description="Wait n seconds")
def slow(n: int):
    time.sleep(n)
    return f"waited {n} s"

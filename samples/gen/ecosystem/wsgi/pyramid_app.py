"""pyramid-mcp 0.0.27 (PyPI: "Model Context Protocol (MCP) integration for Pyramid", a WSGI-native MCP plug-in) in a
Pyramid 2.1 application laid out as its README's Quick Start: `config.include('pyramid_mcp')` with mcp.server_name and
mcp.mount_path /mcp, tools registered with its `@tool` decorator, `config.scan()`. The tools are the ecosystem groups'
set as far as the plug-in can hold it: add(a, b), echo(text), slow_count(n) (sleeps n x 0.1 s and returns; the plug-in
gives a tool no way to send progress). Served by waitress (the README runs wsgiref; waitress is Pyramid's own
default server):

    waitress-serve --host 127.0.0.1 --port PORT pyramid_app:application      (cwd: this folder, PYTHONPATH=.)
"""

import time

from pyramid.config import Configurator
from pyramid_mcp import tool


@tool(name="add", description="Add two integers.")
def add(a: int, b: int) -> int:
    return a + b


@tool(name="echo", description="Echo the text back.")
def echo(text: str) -> str:
    return text


@tool(name="slow_count", description="Count to n, 0.1 s a step.")
def slow_count(n: int) -> str:
    for _ in range(n):
        time.sleep(0.1)
    return f"counted to {n}"


def create_app():
    config = Configurator(settings={"mcp.server_name": "wsgi-pyramid-mcp", "mcp.mount_path": "/mcp",
                                    "mcp.route_discovery.enabled": "true"})
    config.include("pyramid_mcp")
    # Pyramid 2 scans only the "pyramid" venusian category by default, and the plug-in scans only its own package:
    # its @tool registrations (category "pyramid_mcp") are found only when the scan names that category.
    config.scan(__name__, categories=["pyramid", "pyramid_mcp"])
    return config.make_wsgi_app()


application = create_app()

"""flask-mcp-server (0.6.1, PyPI) as its README starts one: its `@tool` decorator (the default registry) and its own Flask app
(`create_app()`: POST/GET /mcp, its own JSON-RPC dialect `mcp.list` / `mcp.call`, no official SDK), served by Flask's
own server (werkzeug, threaded) on 127.0.0.1 PORT. Tools add, echo, slow_count (no progress: the package has no
notification path).

    python flask_app.py PORT
"""

import sys
import time

from flask_mcp_server import create_app, tool


@tool("add", "Add two integers.")
def add(a: int, b: int) -> int:
    return a + b


@tool("echo", "Echo the text back.")
def echo(text: str) -> str:
    return text


@tool("slow_count", "Count to n.")
def slow_count(n: int) -> str:
    for _ in range(n):
        time.sleep(0.1)
    return f"counted to {n}"


if __name__ == "__main__":
    create_app().run(host="127.0.0.1", port=int(sys.argv[1]), threaded=True)

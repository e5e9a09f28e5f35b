"""flask-mcp-plus 0.1.2 (Flask 3.1, served by Werkzeug's threaded development server, `app.run`): the plug-in's own
blueprint on /mcp (POST only; every reply a one-event text/event-stream).

    python flask_server.py PORT

Tools: add(a,b), echo(text), fail(why) (raises).
"""

import sys

from flask import Flask
from flask_mcp_plus import MCP

app = Flask(__name__)
mcp = MCP()
mcp.init_app(app, "frameworks2-flask", __name__)


@mcp.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@mcp.tool
def echo(text: str) -> str:
    """Echo the text back."""
    return text


@mcp.tool
def fail(why: str) -> str:
    """Always fails."""
    raise ValueError(f"refused: {why}")


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), threaded=True, debug=False)

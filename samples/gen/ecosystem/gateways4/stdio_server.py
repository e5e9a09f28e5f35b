"""The Python SDK (mcp 2.3.0, the sdks group's venv) MCPServer of ../pysdk_tools.py (add, echo, slow_count) over stdio:
the upstream mcp-combiner spawns itself in the gateways4 `combiner-stdio` scenario (no wire of its own).

    python stdio_server.py NAME
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import build_server  # noqa: E402  (../pysdk_tools.py)

if __name__ == "__main__":
    build_server(sys.argv[1]).run("stdio")

"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) under uvicorn, for the
indie group's clients: streamable_http_app on /mcp with its defaults (stateful, SSE replies, no event store; it
answers 2026-07-28 requests too), 127.0.0.1 only. Runs in the sdks group's venv (sdks/.venv).

    python py_server.py PORT
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from pysdk_tools import HOST, streamable_app  # noqa: E402

if __name__ == "__main__":
    uvicorn.run(streamable_app("indie-py-server"), host=HOST, port=int(sys.argv[1]), log_level="warning", lifespan="on")

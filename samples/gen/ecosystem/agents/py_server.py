"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) under uvicorn, for the
agents group's framework clients, 127.0.0.1 only, plain HTTP/1.1. Runs in the sdks group's venv (sdks/.venv).

    python py_server.py PORT          streamable_http_app on /mcp with its defaults (stateful, SSE replies without
                                      ids, no event store; it answers 2026-07-28 requests too)
    python py_server.py PORT --sse    the legacy HTTP+SSE app (sse_app defaults: GET /sse, POST /messages/?session_id=)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from pysdk_tools import HOST, build_server, streamable_app  # noqa: E402

if __name__ == "__main__":
    port = int(sys.argv[1])
    if "--sse" in sys.argv[2:]:
        app = build_server("agents-py-sse-server").sse_app(host=HOST)
    else:
        app = streamable_app("agents-py-server")
    uvicorn.run(app, host=HOST, port=port, log_level="warning", lifespan="on")

"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) under uvicorn: the
backend behind every intermediary of the relays group, 127.0.0.1 only, plain HTTP/1.1. Runs in the sdks group's venv
(sdks/.venv). Its name carries the port ("relays-py-server-PORT") so the wire shows which backend an initialize
reached.

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
        app = build_server(f"relays-py-server-{port}").sse_app(host=HOST)
    else:
        app = streamable_app(f"relays-py-server-{port}")
    uvicorn.run(app, host=HOST, port=port, log_level="warning", lifespan="on")

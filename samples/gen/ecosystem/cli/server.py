"""The official Python SDK server (mcp 2.3.0, MCPServer under uvicorn) that the cli group debugs by hand.

    python server.py PORT [--json]     Streamable HTTP on /mcp (SSE replies by default; --json: json_response=True)
    python server.py PORT --legacy     HTTP+SSE (2024-11-05): GET /sse, POST /messages/?session_id=...

Tools (../pysdk_tools.py): add(a,b), echo(text), slow_count(n). Everything else is the SDK's defaults.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import build_server  # noqa: E402  (samples/gen/ecosystem/pysdk_tools.py)

import uvicorn  # noqa: E402

port = int(sys.argv[1])
server = build_server("cli-py-server")
if "--legacy" in sys.argv:
    app = server.sse_app(host="127.0.0.1")
else:
    app = server.streamable_http_app(streamable_http_path="/mcp", json_response="--json" in sys.argv, host="127.0.0.1")
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")

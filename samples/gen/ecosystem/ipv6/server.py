"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count), `streamable_http_app`
on /mcp under uvicorn, HTTP/1.1, the SDK's defaults (stateful, SSE replies, no event store):

    python server.py PORT NAME BIND

BIND is what the user gives both uvicorn (`--host`) and the SDK (`host=`, which decides the SDK's DNS-rebinding
protection: on for 127.0.0.1/localhost/::1, with Host allowed as 127.0.0.1:*, localhost:*, [::1]:*; off otherwise):
127.0.0.1 (the SDK's default), ::1, or :: (every address, both families on Linux).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from pysdk_tools import build_server  # noqa: E402

if __name__ == "__main__":
    port, name, bind = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    app = build_server(name).streamable_http_app(streamable_http_path="/mcp", host=bind)
    uvicorn.run(app, host=bind, port=port, log_level="warning", lifespan="on")

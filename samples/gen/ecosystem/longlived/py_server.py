"""The longlived group's Python SDK server (mcp 2.3.0, the sdks group's venv): MCPServer with ../pysdk_tools.py's
tools (add, echo, slow_count), its Streamable HTTP app on /mcp (stateful, SSE replies, no event store) under uvicorn
with uvicorn's defaults (HTTP keep-alive timeout 5 s), and one setting a user would make: the session manager's
`session_idle_timeout` (default 1800 s) shortened so that expiry falls inside a capture.

    python py_server.py PORT IDLE_TIMEOUT_S
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import build_server  # noqa: E402  (../pysdk_tools.py)

if __name__ == "__main__":
    import uvicorn

    port, idle = int(sys.argv[1]), float(sys.argv[2])
    server = build_server("longlived-py-server")
    app = server.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1", session_idle_timeout=idle)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="info", lifespan="on")

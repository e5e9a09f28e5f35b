"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) served by **hypercorn**
(0.18.0) instead of uvicorn: HTTP/1.1 cleartext on 127.0.0.1, hypercorn's defaults otherwise (keep-alive timeout 5 s,
its own chunked framing of streamed bodies, `server: hypercorn-h11`). NAME is the serverInfo name.

    python hyper_server.py PORT --name NAME          streamable_http_app on /mcp with its defaults (stateful, SSE
                                                     replies without ids, no event store)
    python hyper_server.py PORT --name NAME --sse    the legacy HTTP+SSE app (sse_app defaults: GET /sse,
                                                     POST /messages/?session_id=)
"""

import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hypercorn.asyncio import serve  # noqa: E402
from hypercorn.config import Config  # noqa: E402
from pysdk_tools import HOST, build_server, streamable_app  # noqa: E402

if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--name", required=True)
    p.add_argument("--sse", action="store_true")
    a = p.parse_args()
    app = build_server(a.name).sse_app(host=HOST) if a.sse else streamable_app(a.name)
    config = Config()
    config.bind = [f"{HOST}:{a.port}"]
    config.accesslog = "-"
    asyncio.run(serve(app, config))

"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) under uvicorn: the
origin server behind squid in the egress group, 127.0.0.1 only, HTTP/1.1. Runs in the sdks group's venv (sdks/.venv).
Its name carries the port ("egress-py-server-PORT") so the wire shows which server an initialize reached.

    python py_server.py PORT                        streamable_http_app on /mcp with its defaults (stateful, SSE
                                                    replies without ids, no event store), plain HTTP
    python py_server.py PORT --stateless            streamable_http_app on /mcp with stateless_http=True (mints
                                                    no Mcp-Session-Id, a fresh transport for each request; SSE
                                                    replies without ids, no event store), plain HTTP
    python py_server.py PORT --sse                  the legacy HTTP+SSE app (sse_app defaults: GET /sse,
                                                    POST /messages/?session_id=), plain HTTP
    python py_server.py PORT --cert C --key K       streamable_http_app over TLS (uvicorn ssl_certfile/ssl_keyfile:
                                                    a self-signed certificate for 127.0.0.1); writes no key log
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from pysdk_tools import HOST, build_server, streamable_app  # noqa: E402


def app_for(name, a):
    """The ASGI app the options ask for (the usage above)."""
    if a.sse:
        return build_server(name).sse_app(host=HOST)
    if a.stateless:
        return build_server(name).streamable_http_app(streamable_http_path="/mcp", host=HOST, stateless_http=True)
    return streamable_app(name)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", type=int)
    p.add_argument("--sse", action="store_true")
    p.add_argument("--stateless", action="store_true")
    p.add_argument("--cert")
    p.add_argument("--key")
    a = p.parse_args()
    name = f"egress-py-server-{a.port}"
    app = app_for(name, a)
    tls = {"ssl_certfile": a.cert, "ssl_keyfile": a.key} if a.cert else {}
    uvicorn.run(app, host=HOST, port=a.port, log_level="warning", lifespan="on", **tls)

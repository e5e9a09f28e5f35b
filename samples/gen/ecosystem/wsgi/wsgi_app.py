"""The official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo, slow_count) as a WSGI application:
its `streamable_http_app` (ASGI, /mcp, stateful, SSE replies without ids, no event store) wrapped with a2wsgi's
`ASGIMiddleware`, the way a WSGI host (waitress, uWSGI, gunicorn sync workers) is given an ASGI app.

    waitress-serve --host 127.0.0.1 --port PORT wsgi_app:application      (cwd: this folder, PYTHONPATH=.)
    uwsgi --http-socket 127.0.0.1:PORT --module wsgi_app:application ...
    gunicorn -b 127.0.0.1:PORT wsgi_app:application

a2wsgi 1.10 runs no ASGI lifespan, and the SDK's session manager must be running (its task group) before a request
comes: this module starts an asyncio loop in a daemon thread, enters `session_manager.run()` there, and hands that
loop to ASGIMiddleware(app, loop=loop), so the requests run in the loop that holds the session manager. It does this
at import, once per process (uWSGI: --lazy-apps; gunicorn: no --preload). WSGI_MCP_NAME (environment) is the
serverInfo name; `{port}` in it is replaced by WSGI_MCP_PORT.

The SDK's SSE replies carry `Connection: keep-alive`, a hop-by-hop header that PEP 3333 forbids a WSGI application to
send (waitress refuses it with an AssertionError and answers 500; gunicorn drops it; uWSGI passes it on). With
WSGI_HOP=strip (environment) a thin WSGI wrapper drops the hop-by-hop headers (PEP 3333's list) from start_response,
the fix a deployment on waitress needs; without it the application is a2wsgi's, unchanged.
"""

import asyncio
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from a2wsgi import ASGIMiddleware  # noqa: E402
from pysdk_tools import HOST, build_server  # noqa: E402

NAME = os.environ.get("WSGI_MCP_NAME", "wsgi-py-server").replace("{port}", os.environ.get("WSGI_MCP_PORT", ""))
server = build_server(NAME)
asgi_app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST)
loop = asyncio.new_event_loop()
_ready = threading.Event()


def _run_loop():
    asyncio.set_event_loop(loop)

    async def hold():
        async with server.session_manager.run():
            _ready.set()
            await asyncio.Event().wait()

    loop.run_until_complete(hold())


threading.Thread(target=_run_loop, name="mcp-asgi-loop", daemon=True).start()
if not _ready.wait(20):
    raise RuntimeError("the SDK's session manager did not start")
wrapped = ASGIMiddleware(asgi_app, loop=loop)
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
              "transfer-encoding", "upgrade"}


def strip_hop_by_hop(environ, start_response):
    def start(status, headers, exc_info=None):
        return start_response(status, [(k, v) for k, v in headers if k.lower() not in HOP_BY_HOP], exc_info)

    return wrapped(environ, start)


application = strip_hop_by_hop if os.environ.get("WSGI_HOP") == "strip" else wrapped

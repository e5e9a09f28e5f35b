"""The asgi2 group's ASGI apps: the official Python SDK (mcp 2.3.0) MCPServer of ../pysdk_tools.py (add, echo,
slow_count with progress), as ASGI apps for the servers people deploy them with (daphne, gunicorn with uvicorn
workers, uvicorn with h11 or httptools). The app is chosen by the environment (ASGI servers take a module:attribute):

    ASGI2_MODE=streamable  streamable_http_app on /mcp with its defaults (stateful, SSE replies without ids)
    ASGI2_MODE=json        the same with json_response=True (application/json replies)
    ASGI2_MODE=sse         the legacy HTTP+SSE app (sse_app: GET /sse, POST /messages/?session_id=)
    ASGI2_NAME=NAME        the serverInfo name (default asgi2)

`app` is the SDK's Starlette app as it is. Its StreamableHTTPSessionManager is started by the ASGI lifespan protocol,
which uvicorn and gunicorn's uvicorn workers run; daphne does not speak lifespan (it never sends lifespan.startup),
so under daphne `app` answers every Streamable HTTP request with the SDK's "Task group is not initialized" error.
`app_no_lifespan` is `app` for servers without lifespan: the first HTTP request starts the session manager
(`session_manager.run()`, held open in a background task for the life of the process) before it is passed on, the
workaround the SDK's error message points to ("Make sure to use run()").
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import HOST, build_server  # noqa: E402  (../pysdk_tools.py)

MODE = os.environ.get("ASGI2_MODE", "streamable")
NAME = os.environ.get("ASGI2_NAME", "asgi2")
server = build_server(NAME)
if MODE == "sse":
    app = server.sse_app(host=HOST)
else:
    app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST, json_response=(MODE == "json"))

_started = None


async def _hold_session_manager(ready: asyncio.Event) -> None:
    async with server._lowlevel_server.session_manager.run():
        ready.set()
        await asyncio.Event().wait()  # the life of the process


async def app_no_lifespan(scope, receive, send):
    """`app`, with the session manager started on the first HTTP request (for an ASGI server without lifespan)."""
    global _started
    if MODE != "sse" and scope["type"] == "http" and _started is None:
        ready = asyncio.Event()
        _started = asyncio.ensure_future(_hold_session_manager(ready))
        await asyncio.wait_for(ready.wait(), 10)
    await app(scope, receive, send)

"""The official Python SDK (mcp 2.3.0, the sdks group's venv) MCPServer of ../pysdk_tools.py (add, echo, slow_count) plus
sleep(seconds), which really sleeps (asyncio.sleep) and then answers: a tool that hangs, as a stuck backend call does.
`streamable_http_app` on /mcp with its defaults (stateful, SSE replies without ids, no event store, sse-starlette's
`: ping` every 15 s) under uvicorn, 127.0.0.1, HTTP/1.1.

    python py_server.py PORT
"""

import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from pysdk_tools import HOST, build_server, log  # noqa: E402


def app():
    server = build_server("situations-py-server")

    @server.tool()
    async def sleep(seconds: float) -> str:
        """Sleep `seconds` seconds, then answer."""
        log(f"sleep({seconds}) started")
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            log(f"sleep({seconds}) cancelled")
            raise
        log(f"sleep({seconds}) done")
        return f"slept {seconds} s"

    return server.streamable_http_app(streamable_http_path="/mcp", host=HOST)


if __name__ == "__main__":
    uvicorn.run(app(), host=HOST, port=int(sys.argv[1]), log_level="warning", lifespan="on")

"""The longlived2 group's Python SDK server (mcp 2.3.0, the sdks group's venv): MCPServer with ../pysdk_tools.py's
tools (add, echo, slow_count) plus wait(seconds) (sleeps, then answers: no progress, nothing on its stream but what
the SDK writes by itself), its Streamable HTTP app on /mcp (stateful, the SDK's defaults: SSE replies, no event store,
session_idle_timeout 1800 s) under uvicorn on 127.0.0.1 (HTTP/1.1, keep-alive 5 s).

    python py_server.py PORT nostore|store|json

  nostore  the defaults
  store    event_store= the resume group's in-memory store (../resume/resume_py.py event_store: uuid4 event ids,
           priming events, replay after Last-Event-ID)
  json     json_response=True (the setting FastMCP's and the SDK's stateless examples show): POST replies as
           application/json, the GET stream as usual
"""

import asyncio
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "resume"))
from pysdk_tools import build_server  # noqa: E402  (../pysdk_tools.py)

if __name__ == "__main__":
    import uvicorn

    port, mode = int(sys.argv[1]), sys.argv[2]
    server = build_server(f"longlived2-py-server-{mode}")

    @server.tool()
    async def wait(seconds: float) -> str:
        """Sleep, then answer (no progress notifications)."""
        await asyncio.sleep(seconds)
        return f"waited {seconds} s"

    kw = {}
    if mode == "store":
        from resume_py import event_store  # noqa: E402  (../resume/resume_py.py)
        kw["event_store"] = event_store()
    elif mode == "json":
        kw["json_response"] = True
    app = server.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1", **kw)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="info", lifespan="on")

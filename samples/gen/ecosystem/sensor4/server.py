"""sensor4's Python server: the official Python SDK (mcp 2.3.0, this folder's .venv) MCPServer as
`streamable_http_app` on /mcp (stateful, the SDK's StreamableHTTPSessionManager) under uvicorn on 127.0.0.1
(HTTP/1.1), either with SSE replies and an in-memory event store (uuid4 event ids, priming events; written after the
SDK repository's example event_store.py, which is not in the wheel) or with `json_response=True` (no store).

    python server.py PORT sse|json [CERTFILE KEYFILE]

With CERTFILE and KEYFILE, uvicorn serves HTTPS (its ssl_certfile/ssl_keyfile settings).

Tools (the same set as ts_server.mjs): LOOKUP_TOOLS (environment, default 100) lookup_NNN(query) tools with long descriptions (a tools/list result of
about 70 KB), add(a,b), big(kb) (a text result of kb KiB), slow_count(n) (n progress notifications 0.1 s apart when
the request has a progressToken), wait(s) (sleeps s seconds, sends nothing meanwhile, returns "waited s").
"""

import asyncio
import os
import sys
import uuid

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore

HOST = "127.0.0.1"
N_LOOKUP = int(os.environ.get("LOOKUP_TOOLS", "100"))  # sensor4.sh sets 20 (smaller captures)


def description(i: int) -> str:
    return (f"Lookup tool {i:03d} of the sensor4 catalogue. Searches record set {i:03d} for entries matching the "
            "query string and returns a short textual summary of the best match, including its identifier, its "
            "owner, the last time it was modified and a one-line abstract. Use it when the user asks about items "
            f"that belong to shard {i % 16:02d}; other shards have their own lookup tools with the same interface.")


def big_text(kb: int) -> str:
    line = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789abcdefghijklmnopqrstuvwxyz"
    out, n = [], 0
    while n < kb * 1024:
        s = f"{len(out):06d} {line}\n"[:128]
        out.append(s)
        n += len(s)
    return "".join(out)[: kb * 1024]


class InMemoryEventStore(EventStore):
    def __init__(self):
        self.events: dict[str, tuple[str, object]] = {}

    async def store_event(self, stream_id, message):
        event_id = str(uuid.uuid4())
        self.events[event_id] = (stream_id, message)
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        if last_event_id not in self.events:
            return None
        stream_id = self.events[last_event_id][0]
        after = False
        for event_id, (sid, message) in list(self.events.items()):
            if event_id == last_event_id:
                after = True
            elif after and sid == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


def build(mode: str) -> MCPServer:
    server = MCPServer(f"sensor4-py-{mode}", version="1.0.0")

    def lookup(i: int):
        def fn(query: str) -> str:
            return f"lookup_{i:03d}: best match for {query!r} is record {i:03d}-{len(query):04d}"
        return fn

    for i in range(N_LOOKUP):
        server.tool(name=f"lookup_{i:03d}", description=description(i))(lookup(i))

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def big(kb: int) -> str:
        """A text result of kb KiB."""
        return big_text(kb)

    @server.tool()
    async def slow_count(n: int, ctx: Context) -> str:
        """Count to n with a progress notification 0.1 s apart."""
        for i in range(1, n + 1):
            await ctx.report_progress(i, n, f"step {i}")
            await asyncio.sleep(0.1)
        return f"counted {n}"

    @server.tool()
    async def wait(s: float) -> str:
        """Sleep s seconds, then answer."""
        await asyncio.sleep(s)
        return f"waited {s:g}"

    return server


if __name__ == "__main__":
    port, mode = int(sys.argv[1]), sys.argv[2]
    server = build(mode)
    if mode == "json":
        app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST, json_response=True)
    else:
        app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST, event_store=InMemoryEventStore())
    tls = {"ssl_certfile": sys.argv[3], "ssl_keyfile": sys.argv[4]} if len(sys.argv) > 4 else {}
    uvicorn.run(app, host=HOST, port=port, log_level="warning", lifespan="on", **tls)

"""Python MCP SDK (mcp 2.3.0) server used as the backend of the gateways ecosystem captures.

    python gw_server.py stdio                          # stdio server (child of mcp-proxy / supergateway / ...)
    python gw_server.py http --port P [--json] [--event-store]   # Streamable HTTP on 127.0.0.1:P/mcp (stateful)
    python gw_server.py sse --port P                   # legacy HTTP+SSE only: GET /sse, POST /messages/?session_id=

Tools: add(a, b), echo(text), slow(steps, delay): sends `steps` progress notifications (and one log message),
`delay` seconds apart, then returns "done after N steps".
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys

from mcp.server.mcpserver import Context, MCPServer

HOST = "127.0.0.1"


def build_server():
    server = MCPServer("mcptap-gateways-backend", version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    @server.tool()
    async def slow(steps: int, delay: float, ctx: Context) -> str:
        """Report progress `steps` times, `delay` seconds apart, then answer."""
        await ctx.info(f"slow: {steps} steps of {delay}s")
        for i in range(steps):
            await asyncio.sleep(delay)
            await ctx.report_progress(i + 1, steps, f"step {i + 1}")
        return f"done after {steps} steps"

    return server


def make_event_store():
    from mcp.server.streamable_http import EventMessage, EventStore

    class CounterEventStore(EventStore):
        def __init__(self) -> None:
            self._counter = itertools.count(1)
            self._events: list[tuple[str, str, object]] = []

        async def store_event(self, stream_id, message):
            event_id = str(next(self._counter))
            self._events.append((event_id, stream_id, message))
            return event_id

        async def replay_events_after(self, last_event_id, send_callback):
            ids = [e[0] for e in self._events]
            if last_event_id not in ids:
                return None
            idx = ids.index(last_event_id)
            stream_id = self._events[idx][1]
            for event_id, sid, message in self._events[idx + 1 :]:
                if sid == stream_id and message is not None:
                    await send_callback(EventMessage(message, event_id))
            return stream_id

    return CounterEventStore()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["stdio", "http", "sse"])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--event-store", action="store_true")
    a = p.parse_args()
    server = build_server()
    if a.mode == "stdio":
        asyncio.run(server.run_stdio_async())
        return
    import uvicorn

    if a.mode == "http":
        app = server.streamable_http_app(streamable_http_path="/mcp", json_response=a.json, stateless_http=False,
                                         event_store=make_event_store() if a.event_store else None, host=HOST)
    else:
        app = server.sse_app(sse_path="/sse", message_path="/messages/", host=HOST)
    print(f"backend {a.mode} on http://{HOST}:{a.port}", file=sys.stderr)
    uvicorn.run(app, host=HOST, port=a.port, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()

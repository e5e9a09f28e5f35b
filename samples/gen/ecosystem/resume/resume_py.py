"""Python pieces of samples/gen/ecosystem/resume.sh: the Python SDK (mcp 2.3.0) server, with or without an event
store, and the Python SDK client.

    python resume_py.py server --port N [--store]
    python resume_py.py client --url http://127.0.0.1:N/mcp slow|ticker N

The server: the other groups' MCPServer tool set (../pysdk_tools.py build_server: add, echo, slow_count(n): n progress
notifications 0.1 s apart on the request's stream) plus ticker(n) (returns at once, then n `notifications/message`
0.2 s apart through the session with no related request: the standalone GET stream), as `streamable_http_app` on
/mcp (stateful, SSE replies, the SDK's own StreamableHTTPSessionManager), under uvicorn on 127.0.0.1 (HTTP/1.1).
With --store it passes `event_store=` an in-memory store written after the SDK repository's example
(examples/servers/simple-streamablehttp/.../event_store.py, which is not in the wheel: uuid4 event ids, one dict
of events, replay of the events of the cursor's stream stored after it), adapted to the 2.x interface (the priming
event is stored as None and never replayed; replay sends EventMessage). No retry_interval: the client's default
(1 s) decides.

The client: `Client(url, mode="legacy")` (the classic initialize handshake: a stateful session with its standalone
GET stream), plain HTTP/1.1 (the SDK's default httpx2 client), then tools/list and
  slow N    slow_count(N) with a progress callback (read timeout 10 s)
  ticker N  ticker(N), then 5 s idle while the ticks come on the GET stream (logged by logging_callback)
then add(40,2) and close (the SDK sends DELETE). No retry, no new session: what reconnecting happens is the SDK's
own; when a call raises, it is logged and the run goes on. Bounded: asyncio.timeout(40).
"""

import argparse
import asyncio
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pysdk_tools import HOST, build_server, log, log_raised, progress  # noqa: E402  (../pysdk_tools.py)


def event_store():
    from mcp.server.streamable_http import EventMessage, EventStore

    class InMemoryEventStore(EventStore):
        def __init__(self):
            self.events: dict[str, tuple[str, object]] = {}  # event id -> (stream id, message or None), in order

        async def store_event(self, stream_id, message):
            event_id = str(uuid.uuid4())
            self.events[event_id] = (stream_id, message)
            return event_id

        async def replay_events_after(self, last_event_id, send_callback):
            if last_event_id not in self.events:
                log("event store: unknown Last-Event-ID", last_event_id)
                return None
            stream_id = self.events[last_event_id][0]
            after = False
            for event_id, (sid, message) in list(self.events.items()):
                if event_id == last_event_id:
                    after = True
                elif after and sid == stream_id and message is not None:
                    await send_callback(EventMessage(message, event_id))
            return stream_id

    return InMemoryEventStore()


def run_server(args) -> None:
    import uvicorn
    from mcp.server.mcpserver import Context

    server = build_server(f"resume-py-server-{'store' if args.store else 'nostore'}")

    @server.tool()
    async def ticker(n: int, ctx: Context) -> str:
        """n log notifications on the GET stream, 0.2 s apart."""
        session = ctx.session

        async def tick():
            for i in range(1, n + 1):
                await asyncio.sleep(0.2)
                try:
                    await session.send_log_message(level="info", data=f"tick {i}")
                except Exception as e:  # noqa: BLE001 - the session may be gone
                    log("tick", i, "not sent:", type(e).__name__, e)

        asyncio.get_running_loop().create_task(tick())
        return f"ticking {n}"

    app = server.streamable_http_app(streamable_http_path="/mcp", host=HOST,
                                     event_store=event_store() if args.store else None)
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning", lifespan="on")


async def run_client(args) -> None:
    from mcp.client.client import Client

    async def on_log(params):
        log("log notification:", params.data)

    async def step(label, coro):
        try:
            r = await coro
            log(label, "->", [getattr(c, "text", c) for c in r.content], "error" if r.is_error else "")
        except Exception as e:  # noqa: BLE001 - what the SDK raised is the point
            log(label, "the SDK raised:", type(e).__name__, str(e)[:200])

    try:
        async with asyncio.timeout(40):
            async with Client(args.url, mode="legacy", logging_callback=on_log) as client:
                log("negotiated", client.protocol_version)
                tools = await client.list_tools()
                log("tools", [t.name for t in tools.tools])
                if args.what == "slow":
                    await step(f"slow_count({args.n})", client.call_tool(
                        "slow_count", {"n": args.n}, read_timeout_seconds=10, progress_callback=progress))
                else:
                    await step(f"ticker({args.n})", client.call_tool("ticker", {"n": args.n}, read_timeout_seconds=10))
                    await asyncio.sleep(5)
                await asyncio.sleep(0.1)
                await step("add(40,2)", client.call_tool("add", {"a": 40, "b": 2}, read_timeout_seconds=10))
        log("closed")
    except BaseException as e:  # noqa: BLE001
        log_raised(e)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--store", action="store_true")
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("what", choices=("slow", "ticker"))
    c.add_argument("n", type=int)
    a = p.parse_args()
    if a.cmd == "server":
        run_server(a)
    else:
        asyncio.run(run_client(a))

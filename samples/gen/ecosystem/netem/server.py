"""(netem group; from ../situations8/server.py plus the tool big(kb).) The official Python SDK (mcp 2.3.0, this folder's venv) MCPServer served with `streamable_http_app` on /mcp under
uvicorn, 127.0.0.1 (or the address given), HTTP/1.1, the SDK's defaults (stateful, SSE replies) unless an option says
otherwise:

    python server.py PORT NAME [--event-store] [--host ADDR]

Tools: add(a, b); slow(seconds): one progress notification a second (ctx.report_progress, on the call's own SSE reply),
then the answer; ticker(n, ms): answers at once, then sends n notifications/message `tick i` ms apart with no related
request (the session's standalone GET stream); big(kb): a text result of kb KiB (big enough for many segments).
--event-store   an in-memory EventStore (ids `<counter>`, one counter for the process; replay after an id on its
                stream): replies open with a priming event and carry ids
"""

import asyncio
import itertools
import sys
import time
import warnings

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore

warnings.simplefilter("ignore")
T0 = time.monotonic()


def log(*a):
    print(f"[{time.monotonic() - T0:.3f}]", *a, file=sys.stderr, flush=True)


class MemoryEventStore(EventStore):
    def __init__(self) -> None:
        self.events = []  # (id, stream_id, message)
        self.counter = itertools.count(1)

    async def store_event(self, stream_id, message):
        eid = str(next(self.counter))
        self.events.append((eid, stream_id, message))
        return eid

    async def replay_events_after(self, last_event_id, send_callback):
        found = [e for e in self.events if e[0] == last_event_id]
        if not found:
            log(f"replay: unknown id {last_event_id}")
            return None
        stream_id = found[0][1]
        after = False
        for eid, sid, msg in self.events:
            if eid == last_event_id:
                after = True
                continue
            if after and sid == stream_id and msg is not None:
                log(f"replay: event {eid} of stream {stream_id}")
                await send_callback(EventMessage(msg, eid))
        return stream_id


def app(name, opts, host):
    server = MCPServer(name, version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    async def slow(seconds: int, ctx: Context) -> str:
        """Work for `seconds` seconds, one progress notification a second."""
        log(f"slow({seconds}) started")
        try:
            for i in range(1, seconds + 1):
                await asyncio.sleep(1)
                await ctx.report_progress(i, seconds, f"second {i}")
                log(f"slow: progress {i}")
        except BaseException as e:
            log(f"slow({seconds}) ended by {type(e).__name__}")
            raise
        log(f"slow({seconds}) done")
        return f"worked {seconds} s"

    @server.tool()
    def big(kb: int) -> str:
        """A text result of kb KiB."""
        line = "".join(chr(48 + (i % 43)) for i in range(63)) + "\n"
        return (line * (kb * 16))[: kb * 1024]

    @server.tool()
    async def ticker(n: int, ms: int, ctx: Context) -> str:
        """Answer at once, then send n log notifications ms apart on the session's standalone stream."""
        session = ctx.request_context.session

        async def ticks():
            for i in range(1, n + 1):
                await asyncio.sleep(ms / 1000)
                try:
                    await session.send_log_message("info", f"tick {i}", logger="ticker")
                    log(f"tick {i} sent")
                except Exception as e:  # noqa: BLE001
                    log(f"tick {i}: {type(e).__name__} {e}")

        asyncio.get_running_loop().create_task(ticks())
        return f"{n} ticks coming"

    kwargs = {}
    if "--event-store" in opts:
        kwargs["event_store"] = MemoryEventStore()
    return server.streamable_http_app(streamable_http_path="/mcp", host=host, **kwargs)


if __name__ == "__main__":
    port, name, opts = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    host = opts[opts.index("--host") + 1] if "--host" in opts else "127.0.0.1"
    uvicorn.run(app(name, opts, host), host=host, port=port, log_level="warning", lifespan="on")

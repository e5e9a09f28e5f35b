"""The official Python SDK (mcp 2.3.0, the sdks group's venv) MCPServer of ../pysdk_tools.py (add, echo, slow_count)
plus lookup(key), an application tool whose answer takes time: `--cold S` makes the first lookup of this process take
S seconds (a cache being warmed), `--delay S` makes every lookup take S seconds (a degraded replica). Served with
`streamable_http_app` on /mcp under uvicorn, 127.0.0.1, HTTP/1.1; the SDK's defaults unless an option says otherwise:

    python server.py PORT NAME [--json] [--stateless] [--event-store] [--cold S] [--delay S]

--json          json_response=True (application/json replies, as the SDK's docs advise for scaled deployments)
--stateless     stateless_http=True (no session id)
--event-store   an in-memory EventStore (ids `<counter>`, one counter for the process; replay after an id on its
                stream), so replies open with a priming event and carry ids
"""

import asyncio
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from mcp.server.streamable_http import EventMessage, EventStore  # noqa: E402
from pysdk_tools import HOST, build_server, log  # noqa: E402


class MemoryEventStore(EventStore):
    """Every event kept in memory under an integer id; replay sends the events of the id's stream after it."""

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


def app(argv):
    name = argv[0]
    opts = argv[1:]
    cold = float(opts[opts.index("--cold") + 1]) if "--cold" in opts else 0.0
    delay = float(opts[opts.index("--delay") + 1]) if "--delay" in opts else 0.0
    server = build_server(name)
    state = {"calls": 0}

    @server.tool()
    async def lookup(key: str) -> str:
        """Look a key up (slow when the cache is cold)."""
        state["calls"] += 1
        n = state["calls"]
        wait = delay + (cold if n == 1 else 0.0)
        log(f"lookup({key}) call {n} started, {wait} s")
        await asyncio.sleep(wait)
        log(f"lookup({key}) call {n} done")
        return f"{key} = value-{len(key)} (call {n} on {name})"

    kwargs = {}
    if "--json" in opts:
        kwargs["json_response"] = True
    if "--stateless" in opts:
        kwargs["stateless_http"] = True
    if "--event-store" in opts:
        kwargs["event_store"] = MemoryEventStore()
    return server.streamable_http_app(streamable_http_path="/mcp", host=HOST, **kwargs)


if __name__ == "__main__":
    uvicorn.run(app(sys.argv[2:]), host=HOST, port=int(sys.argv[1]), log_level="warning", lifespan="on")

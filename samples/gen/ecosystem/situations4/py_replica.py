"""A Python SDK (mcp 2.3.0) MCPServer replica with an event store a user writes for several replicas: SSE events in one
SQLite file shared by every process pointed at it (table events: id, stream, message), event ids uuid4 hex as the
SDK's example InMemoryEventStore makes them. The server is ../pysdk_tools.py build_server (add, echo, slow_count)
served by `streamable_http_app(event_store=...)` under uvicorn on 127.0.0.1; everything else at the SDK's defaults
(stateful: the session manager keeps its sessions in the process's memory).

    python py_replica.py PORT DB-FILE
"""

import json
import os
import sqlite3
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import uvicorn  # noqa: E402
from mcp.server.streamable_http import EventMessage, EventStore  # noqa: E402
from mcp.types import JSONRPCMessage  # noqa: E402
from pysdk_tools import HOST, build_server  # noqa: E402


class SqliteEventStore(EventStore):
    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS events (n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE,"
                        " stream TEXT, message TEXT)")

    async def store_event(self, stream_id, message):
        event_id = uuid.uuid4().hex
        body = None if message is None else message.model_dump_json(by_alias=True, exclude_none=True)
        self.db.execute("INSERT INTO events (id, stream, message) VALUES (?, ?, ?)", (event_id, stream_id, body))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        row = self.db.execute("SELECT n, stream FROM events WHERE id = ?", (last_event_id,)).fetchone()
        if row is None:
            return None
        n, stream = row
        for eid, body in self.db.execute("SELECT id, message FROM events WHERE stream = ? AND n > ? AND message IS NOT NULL"
                                         " ORDER BY n", (stream, n)).fetchall():
            await send_callback(EventMessage(JSONRPCMessage.model_validate(json.loads(body)), eid))
        return stream


if __name__ == "__main__":
    port, db = int(sys.argv[1]), sys.argv[2]
    app = build_server(f"situations4-py-{port}").streamable_http_app(
        streamable_http_path="/mcp", host=HOST, event_store=SqliteEventStore(db))
    uvicorn.run(app, host=HOST, port=port, log_level="info")

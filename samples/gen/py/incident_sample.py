"""Servers, gateways and clients for the mcptap *incident* captures (samples/inc-*.pcap, samples/ok-*.pcap).

Everything listens on / talks to 127.0.0.1 only. The MCP peers are the real Python SDK (`mcp` 2.3.0):
`MCPServer` + `streamable_http_app()` / `sse_app()` under uvicorn, and `mcp.client.client.Client`.
Misbehaviour comes from small ASGI middlewares ("gateways") wrapped around the real SDK app in the same
process and on the same port, from a deliberately buggy event store, or from application code around the
SDK client (exactly what an application, proxy or gateway could do). No custom MCP server is used.

Server:
    python incident_sample.py server --port N [options]

      --app streamable|sse      SDK app: streamable_http_app (default) or the legacy HTTP+SSE sse_app
      --json                    json_response=True
      --event-store KIND        counter (ids 1,2,3.. shared by all streams), uuid (uuid4 ids, like the SDK
                                example store) or replay-all (counter ids, but a resume replays the whole
                                stream from its start, i.e. also the events at or before Last-Event-ID)
      --retry-ms N              retry_interval (sent as `retry:` in priming events)
      --json-first N            the JsonFirstGateway of mcp_sample.py
      --gateway SPEC            one of the gateways below (repeatable, applied inside-out in the given order)

    Gateway SPECs (see the classes below for the exact behaviour):
      cut-stream:TOOL           close the connection of a tools/call(TOOL) SSE reply just before its response event
      ids-per-stream            renumber SSE `id:` lines from 1 on every response stream (ids repeat across streams)
      ids-swap:TOOL             on the tools/call(TOOL) reply, swap the ids of its 3rd and 4th events (goes backwards)
      duplicate:TOOL            also write the response event of tools/call(TOOL) onto the session's GET stream
      forget:N:MODE             after N tools/call replies of a session, forget it: MODE sdk-404 (drop it from the
                                SDK session manager: the SDK answers 404), py-400 (answer like python-sdk < 1.26:
                                400 "Bad Request: No valid session ID provided"), rmcp-401, http-503
      rotate-sid:N              from the reply to the N-th tools/call on, answer with a new Mcp-Session-Id
                                (mapped back to the real one on requests); no new initialize
      get:KIND                  answer GET on the MCP path with 404-html, json-200 or 405 instead of the SDK
      endpoint-event            write an HTTP+SSE `event: endpoint` into the standalone GET stream
      body-limit:BYTES          answer POST bodies larger than BYTES with an nginx-like 413 HTML page
      fail-calls:K=S,...        answer the K-th tools/call POST of a session with status S (502/503/504, HTML body)
      rewrite-version:FROM=TO[@N]  rewrite protocolVersion FROM -> TO in the initialize result (with @N: only from
                                the N-th initialize of the server process on; the earlier ones pass unchanged)
      mint-session              add an Mcp-Session-Id header to every response (even 2026-07-28 ones)
      buffer:TOOL               a buffering proxy: hold the SSE body of tools/call(TOOL) until its response, then
                                flush it in one write, and drop X-Accel-Buffering
      post-status:PATH=STATUS   answer POST PATH with STATUS text/plain (e.g. /sse=500) before the SDK app

Client:
    python incident_sample.py client --url URL --scenario NAME      (bounded: fixed calls, --timeout guard)

    scenarios: basic, basic-twice, stream-lost, polling, stalled, steps, resume, unknown-cursor, missing-cursor,
    stale-giveup, stale-reinit, stale-retry, big-echo, retry-5xx, header-mismatch, method-mismatch, modern,
    modern-mixed, buffered
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import sys
import uuid
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_sample import HOST, JsonFirstGateway, build_server as build_base_server  # noqa: E402

from mcp.server.mcpserver import Context  # noqa: E402  (module level: the tools' annotations are strings)

warnings.simplefilter("ignore")  # ctx.info() is deprecated for 2026-07-28; fine for the 2025 era used here

BASIC_CALLS = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}),
               ("add", {"a": 40, "b": 2}), ("echo", {"text": "bye"})]


# =========================================================================== server
def build_server():
    """mcp_sample's server (add, echo) plus a few tools that make streams do interesting things."""
    import anyio

    server = build_base_server()

    @server.tool()
    async def work(ctx: Context) -> str:
        """Log one line, work 0.5 s, return."""
        await ctx.info("working")
        await anyio.sleep(0.5)
        return "worked"

    @server.tool()
    async def slow(seconds: float) -> str:
        """Sleep, then return."""
        await anyio.sleep(seconds)
        return f"slept {seconds}s"

    @server.tool()
    async def steps(n: int, interval: float, ctx: Context) -> str:
        """Log n lines, `interval` seconds apart, then return."""
        for i in range(n):
            await ctx.info(f"step {i + 1}/{n}")
            await anyio.sleep(interval)
        return f"{n} steps"

    @server.tool()
    async def count(n: int, ctx: Context) -> str:
        """Report progress n times (needs a progress token from the client), then return."""
        for i in range(n):
            await ctx.report_progress(i + 1, n)
            await anyio.sleep(0.05)
        return f"counted {n}"

    @server.tool()
    async def poll_job(before: int, after: int, ctx: Context) -> str:
        """2025-11-25 polling: log `before` lines, close the SSE stream (SDK close_sse_stream), log `after` lines
        while the client is away, work 1.5 s, return (the client gets the rest by resuming)."""
        for i in range(before):
            await ctx.info(f"before close {i + 1}")
        await anyio.sleep(0.1)
        await ctx.close_sse_stream()
        await anyio.sleep(0.1)
        for i in range(after):
            await ctx.info(f"while away {i + 1}")
        await anyio.sleep(1.5)
        return "job done"

    @server.tool()
    async def drop_get(ctx: Context) -> str:
        """Close the session's standalone GET stream (SDK close_standalone_sse_stream)."""
        await ctx.close_standalone_sse_stream()
        return "GET stream closed"

    return server


def make_event_store(kind: str):
    from mcp.server.streamable_http import EventMessage, EventStore

    class StoreBase(EventStore):
        def __init__(self) -> None:
            self._counter = itertools.count(1)
            self._events: list[tuple[str, str, object]] = []  # (event_id, stream_id, message|None)

        def new_id(self) -> str:
            return str(next(self._counter))

        async def store_event(self, stream_id, message):
            event_id = self.new_id()
            self._events.append((event_id, stream_id, message))
            return event_id

        async def replay_events_after(self, last_event_id, send_callback):
            ids = [e[0] for e in self._events]
            if last_event_id not in ids:
                return None
            idx = ids.index(last_event_id)
            stream_id = self._events[idx][1]
            for event_id, sid, message in self.replay_slice(idx, stream_id):
                if sid == stream_id and message is not None:
                    await send_callback(EventMessage(message, event_id))
            return stream_id

        def replay_slice(self, idx, stream_id):
            return self._events[idx + 1:]  # correct: only what came after Last-Event-ID

    class CounterStore(StoreBase):
        """ids: one integer counter shared by all streams (as mcp_sample.py's store)."""

    class UuidStore(StoreBase):
        """ids: uuid4, as the SDK's example event store (unique, unordered)."""

        def new_id(self) -> str:
            return str(uuid.uuid4())

    class ReplayAllStore(StoreBase):
        """BUGGY: on resume, replays every stored event of the stream from its start, including the events at
        or before Last-Event-ID (the events keep their original ids)."""

        def replay_slice(self, idx, stream_id):
            return self._events

    return {"counter": CounterStore, "uuid": UuidStore, "replay-all": ReplayAllStore}[kind]()


# --------------------------------------------------------------------------- ASGI helpers
async def read_body(receive):
    """Read the whole request body; return (body, receive') where receive' replays it to the app."""
    body = b""
    while True:
        msg = await receive()
        if msg["type"] != "http.request":
            break
        body += msg.get("body", b"")
        if not msg.get("more_body", False):
            break
    replayed = False

    async def replay():
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay


def rpc_of(body: bytes):
    try:
        obj = json.loads(body)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def tool_name(rpc) -> str | None:
    if rpc and rpc.get("method") == "tools/call":
        return (rpc.get("params") or {}).get("name")
    return None


def header(scope_or_msg, name: bytes) -> str:
    for k, v in scope_or_msg.get("headers", []):
        if k.lower() == name:
            return v.decode("latin-1")
    return ""


def set_header(headers, name: bytes, value: bytes | None):
    out = [(k, v) for k, v in headers if k.lower() != name]
    if value is not None:
        out.append((name, value))
    return out


def sse_messages(chunk: bytes):
    """JSON-RPC messages in the data: lines of an SSE chunk (one or more events)."""
    out = []
    for block in chunk.decode("utf-8", "replace").replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(ln[5:].lstrip(" ") for ln in block.split("\n") if ln.startswith("data:"))
        if data.strip():
            try:
                out.append(json.loads(data))
            except ValueError:
                pass
    return out


def is_response_chunk(chunk: bytes) -> bool:
    return any(isinstance(m, dict) and "method" not in m and ("result" in m or "error" in m)
               for m in sse_messages(chunk))


async def plain(send, status: int, body: bytes, ctype: bytes | None, extra=()):
    headers = [(b"content-length", str(len(body)).encode())] + list(extra)
    if ctype is not None:
        headers.append((b"content-type", ctype))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


NGINX_PAGE = ("<html>\r\n<head><title>{s} {r}</title></head>\r\n<body>\r\n<center><h1>{s} {r}</h1></center>\r\n"
              "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
REASONS = {413: "Request Entity Too Large", 500: "Internal Server Error", 502: "Bad Gateway",
           503: "Service Temporarily Unavailable", 504: "Gateway Time-out", 404: "Not Found"}


class Gateway:
    """Base: pass non-HTTP scopes (lifespan) through."""

    def __init__(self, app, arg: str = "") -> None:
        self.app = app
        self.arg = arg

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope, receive, send):
        await self.app(scope, receive, send)


class CutStream(Gateway):
    """cut-stream:TOOL - forward the SSE reply of tools/call(TOOL) until the event carrying the JSON-RPC response,
    then close the TCP connection instead of sending it (the server-side FIN arrives before the response)."""

    class Cut(Exception):
        pass

    async def http(self, scope, receive, send):
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, receive = await read_body(receive)
        if tool_name(rpc_of(body)) != self.arg:
            return await self.app(scope, receive, send)
        state = {"cut": False}

        async def wrapped(msg):
            if state["cut"]:
                return
            if msg["type"] == "http.response.body" and is_response_chunk(msg.get("body", b"")):
                state["cut"] = True
                raise CutStream.Cut()
            await send(msg)

        try:
            await self.app(scope, receive, wrapped)
        except CutStream.Cut:
            pass
        if state["cut"]:
            # uvicorn closes the connection when the app fails after the response started
            raise RuntimeError("gateway: upstream stream cut before the response")


ID_LINE = re.compile(rb"^id: ?([^\r\n]*)(\r?\n)", re.M)


class IdsPerStream(Gateway):
    """ids-per-stream - every SSE response's ids are renumbered 1, 2, 3 ... (a per-stream counter)."""

    async def http(self, scope, receive, send):
        counter = itertools.count(1)

        async def wrapped(msg):
            if msg["type"] == "http.response.body" and msg.get("body"):
                msg = dict(msg, body=ID_LINE.sub(lambda m: b"id: %d%s" % (next(counter), m.group(2)), msg["body"]))
            await send(msg)

        await self.app(scope, receive, wrapped)


class IdsSwap(Gateway):
    """ids-swap:TOOL - on the SSE reply to tools/call(TOOL), hold its 3rd event until the 4th arrives, then send
    both in order with their ids exchanged: ids ... k+1, k+3, k+2, k+4 (unique, but one step backwards)."""

    async def http(self, scope, receive, send):
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, receive = await read_body(receive)
        if tool_name(rpc_of(body)) != self.arg:
            return await self.app(scope, receive, send)
        state = {"n": 0, "held": None}

        async def wrapped(msg):
            if msg["type"] == "http.response.body" and ID_LINE.search(msg.get("body", b"")):
                state["n"] += 1
                if state["n"] == 3:
                    state["held"] = msg
                    return
                if state["n"] == 4 and state["held"] is not None:
                    held = state["held"]
                    id3 = ID_LINE.search(held["body"]).group(1)
                    id4 = ID_LINE.search(msg["body"]).group(1)
                    await send(dict(held, body=ID_LINE.sub(b"id: " + id4 + rb"\2", held["body"], count=1)))
                    msg = dict(msg, body=ID_LINE.sub(b"id: " + id3 + rb"\2", msg["body"], count=1))
            await send(msg)

        await self.app(scope, receive, wrapped)


class Duplicate(Gateway):
    """duplicate:TOOL - the response event of tools/call(TOOL) is written on its POST stream and ALSO on the
    session's standalone GET stream (the agentgateway#2373 bug)."""

    get_streams: dict[str, object] = {}

    async def http(self, scope, receive, send):
        sid = header(scope, b"mcp-session-id")
        if scope["method"] == "GET" and sid and not header(scope, b"last-event-id"):
            Duplicate.get_streams[sid] = send
            try:
                return await self.app(scope, receive, send)
            finally:
                Duplicate.get_streams.pop(sid, None)
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, receive = await read_body(receive)
        if tool_name(rpc_of(body)) != self.arg:
            return await self.app(scope, receive, send)

        async def wrapped(msg):
            await send(msg)
            if msg["type"] == "http.response.body" and is_response_chunk(msg.get("body", b"")):
                get_send = Duplicate.get_streams.get(sid)
                if get_send is not None:
                    await get_send({"type": "http.response.body", "body": msg["body"], "more_body": True})

        await self.app(scope, receive, wrapped)


class Forget(Gateway):
    """forget:N:MODE - once the first session has had N tools/call replies, it is forgotten (as after a server restart or
    a lost load-balancer affinity). MODE: sdk-404 removes it from the real SDK session manager, so the SDK
    answers its own 404 {-32600 "Session not found"}; py-400 / rmcp-401 / http-503 answer every later request
    of that session here, like the servers named in mcp-transports.md (python-sdk < 1.26, rmcp, neotoma)."""

    manager = None  # set by run_server (the app's StreamableHTTPSessionManager)

    def __init__(self, app, arg):
        super().__init__(app, arg)
        n, self.mode = arg.split(":")
        self.n = int(n)
        self.calls: dict[str, int] = {}
        self.forgotten: set[str] = set()

    async def http(self, scope, receive, send):
        sid = header(scope, b"mcp-session-id")
        if sid and not self.forgotten and self.calls.get(sid, 0) >= self.n:  # only the first session
            self.forgotten.add(sid)
            if self.mode == "sdk-404":
                Forget.manager._server_instances.pop(sid, None)  # noqa: SLF001 - what the SDK does on expiry
        if sid in self.forgotten and self.mode != "sdk-404":
            await read_body(receive)
            if self.mode == "py-400":  # python-sdk < 1.26: starlette Response(...), no media type
                return await plain(send, 400, b"Bad Request: No valid session ID provided", None)
            if self.mode == "rmcp-401":
                return await plain(send, 401, b"Unauthorized: Session not found", b"text/plain; charset=utf-8")
            if self.mode == "http-503":
                body = json.dumps({"jsonrpc": "2.0", "id": None,
                                   "error": {"code": -32000, "message": "Session not found, reconnect"}},
                                  separators=(",", ":")).encode()
                return await plain(send, 503, body, b"application/json")
            raise ValueError(self.mode)
        if scope["method"] == "POST" and sid:
            body, receive = await read_body(receive)
            if tool_name(rpc_of(body)):
                self.calls[sid] = self.calls.get(sid, 0) + 1
        await self.app(scope, receive, send)


class RotateSid(Gateway):
    """rotate-sid:N - a gateway that hands out its own session ids. The reply to the N-th tools/call of a session
    (and every later reply) carries a NEW Mcp-Session-Id; requests with either id are mapped back to the backend
    id. The client gets no new initialize."""

    def __init__(self, app, arg):
        super().__init__(app, arg)
        self.n = int(arg)
        self.front_to_back: dict[str, str] = {}
        self.back_to_front: dict[str, str] = {}
        self.calls: dict[str, int] = {}

    async def http(self, scope, receive, send):
        front = header(scope, b"mcp-session-id")
        back = self.front_to_back.get(front, front)
        if front and back != front:
            scope = dict(scope, headers=set_header(scope["headers"], b"mcp-session-id", back.encode()))
        is_call = False
        if scope["method"] == "POST" and back:
            body, receive = await read_body(receive)
            is_call = tool_name(rpc_of(body)) is not None
            if is_call:
                self.calls[back] = self.calls.get(back, 0) + 1
                if self.calls[back] == self.n:
                    new = uuid.uuid4().hex
                    self.front_to_back[new] = back
                    self.back_to_front[back] = new

        async def wrapped(msg):
            if msg["type"] == "http.response.start":
                sid = header(msg, b"mcp-session-id")
                if sid and sid in self.back_to_front:
                    msg = dict(msg, headers=set_header(msg["headers"], b"mcp-session-id",
                                                       self.back_to_front[sid].encode()))
            await send(msg)

        await self.app(scope, receive, wrapped)


class GetOverride(Gateway):
    """get:KIND - GET on the MCP path is answered by the gateway: 404-html (an express-style 'Cannot GET'),
    json-200 (200 application/json health document) or 405 (JSON-RPC error, Allow: POST, DELETE)."""

    async def http(self, scope, receive, send):
        if scope["method"] != "GET":
            return await self.app(scope, receive, send)
        if self.arg == "404-html":
            page = (b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n'
                    b'</head>\n<body>\n<pre>Cannot GET /mcp</pre>\n</body>\n</html>\n')
            return await plain(send, 404, page, b"text/html; charset=utf-8")
        if self.arg == "json-200":
            return await plain(send, 200, b'{"status":"ok","service":"mcp"}', b"application/json")
        if self.arg == "405":
            body = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Method not allowed."}}'
            return await plain(send, 405, body, b"application/json", [(b"allow", b"POST, DELETE")])
        raise ValueError(self.arg)


class EndpointEvent(Gateway):
    """endpoint-event - a hybrid server that also speaks HTTP+SSE: its standalone GET stream on the Streamable
    HTTP endpoint opens with a legacy `event: endpoint` (data /messages/?session_id=<hex>)."""

    async def http(self, scope, receive, send):
        if scope["method"] != "GET":
            return await self.app(scope, receive, send)

        async def wrapped(msg):
            await send(msg)
            if msg["type"] == "http.response.start" and msg["status"] == 200:
                data = f"event: endpoint\r\ndata: /messages/?session_id={uuid.uuid4().hex}\r\n\r\n".encode()
                await send({"type": "http.response.body", "body": data, "more_body": True})

        await self.app(scope, receive, wrapped)


class BodyLimit(Gateway):
    """body-limit:BYTES - an nginx client_max_body_size: larger POST bodies get 413 with an HTML page."""

    async def http(self, scope, receive, send):
        length = header(scope, b"content-length")
        if scope["method"] == "POST" and length and int(length) > int(self.arg):
            await read_body(receive)
            page = NGINX_PAGE.format(s=413, r=REASONS[413]).encode()
            return await plain(send, 413, page, b"text/html", [(b"server", b"nginx")])
        await self.app(scope, receive, send)


class FailCalls(Gateway):
    """fail-calls:K=S,... - the K-th tools/call POST of a session (counting retries) is answered by the gateway
    with status S and an nginx error page; it never reaches the server."""

    def __init__(self, app, arg):
        super().__init__(app, arg)
        self.plan = {int(k): int(s) for k, s in (p.split("=") for p in arg.split(","))}
        self.calls: dict[str, int] = {}

    async def http(self, scope, receive, send):
        sid = header(scope, b"mcp-session-id")
        if scope["method"] == "POST" and sid:
            body, receive = await read_body(receive)
            if tool_name(rpc_of(body)):
                self.calls[sid] = k = self.calls.get(sid, 0) + 1
                if k in self.plan:
                    s = self.plan[k]
                    page = NGINX_PAGE.format(s=s, r=REASONS[s]).encode()
                    return await plain(send, s, page, b"text/html", [(b"server", b"nginx")])
        await self.app(scope, receive, send)


class RewriteVersion(Gateway):
    """rewrite-version:FROM=TO[@N] - rewrite "protocolVersion":"FROM" to TO in the reply to initialize; with @N
    only from the N-th initialize this server process sees on (the earlier ones pass unchanged), like a stale
    replica or a rewriting gateway that only some requests reach."""

    def __init__(self, app, arg):
        super().__init__(app, arg)
        spec, _, start = arg.partition("@")
        self.old, self.new = (f'"protocolVersion":"{v}"'.encode() for v in spec.split("="))
        self.start = int(start) if start else 1
        self.seen = 0  # initialize requests so far (all sessions)

    async def http(self, scope, receive, send):
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, receive = await read_body(receive)
        rpc = rpc_of(body)
        if not rpc or rpc.get("method") != "initialize":
            return await self.app(scope, receive, send)
        self.seen += 1
        if self.seen < self.start:
            return await self.app(scope, receive, send)
        old, new = self.old, self.new

        async def wrapped(msg):
            if msg["type"] == "http.response.start":
                msg = dict(msg, headers=set_header(msg["headers"], b"content-length", None))
            if msg["type"] == "http.response.body":
                msg = dict(msg, body=msg.get("body", b"").replace(old, new))
            await send(msg)

        await self.app(scope, receive, wrapped)


class MintSession(Gateway):
    """mint-session - add Mcp-Session-Id to every response that has none (one id per process, minted on the
    first response): a session-affinity gateway that does not know 2026-07-28 is stateless."""

    sid = uuid.uuid4().hex

    async def http(self, scope, receive, send):
        async def wrapped(msg):
            if msg["type"] == "http.response.start" and not header(msg, b"mcp-session-id"):
                msg = dict(msg, headers=list(msg["headers"]) + [(b"mcp-session-id", MintSession.sid.encode())])
            await send(msg)

        await self.app(scope, receive, wrapped)


class Buffer(Gateway):
    """buffer:TOOL - a buffering reverse proxy on the SSE reply of tools/call(TOOL): the headers go out at once
    (without X-Accel-Buffering), the body is held until the response event and then written in one piece."""

    async def http(self, scope, receive, send):
        if scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, receive = await read_body(receive)
        if tool_name(rpc_of(body)) != self.arg:
            return await self.app(scope, receive, send)
        state = {"buf": b"", "flushed": False}

        async def wrapped(msg):
            if msg["type"] == "http.response.start":
                msg = dict(msg, headers=set_header(msg["headers"], b"x-accel-buffering", None))
                return await send(msg)
            if msg["type"] == "http.response.body" and not state["flushed"]:
                state["buf"] += msg.get("body", b"")
                if is_response_chunk(msg.get("body", b"")) or not msg.get("more_body", False):
                    state["flushed"] = True
                    return await send(dict(msg, body=state["buf"]))
                return
            await send(msg)

        await self.app(scope, receive, wrapped)


class PostStatus(Gateway):
    """post-status:PATH=STATUS - POST PATH is answered STATUS text/plain by the gateway."""

    async def http(self, scope, receive, send):
        path, status = self.arg.split("=")
        if scope["method"] == "POST" and scope["path"] == path:
            await read_body(receive)
            s = int(status)
            return await plain(send, s, REASONS.get(s, "Error").encode(), b"text/plain; charset=utf-8")
        await self.app(scope, receive, send)


GATEWAYS = {"cut-stream": CutStream, "ids-per-stream": IdsPerStream, "ids-swap": IdsSwap,
            "duplicate": Duplicate, "forget": Forget, "rotate-sid": RotateSid, "get": GetOverride,
            "endpoint-event": EndpointEvent, "body-limit": BodyLimit, "fail-calls": FailCalls,
            "rewrite-version": RewriteVersion, "mint-session": MintSession, "buffer": Buffer,
            "post-status": PostStatus}


def run_server(args) -> None:
    import uvicorn

    server = build_server()
    if args.app == "sse":
        app = server.sse_app(host=HOST)
    else:
        app = server.streamable_http_app(
            streamable_http_path="/mcp",
            json_response=args.json,
            stateless_http=False,
            event_store=make_event_store(args.event_store) if args.event_store else None,
            retry_interval=args.retry_ms,
            host=HOST,
        )
        Forget.manager = server.session_manager
    if args.json_first:
        app = JsonFirstGateway(app, args.json_first)
    for spec in args.gateway:
        name, _, arg = spec.partition(":")
        app = GATEWAYS[name](app, arg)
    uvicorn.run(app, host=HOST, port=args.port, log_level="critical", lifespan="on")


# =========================================================================== client
def log(*a):
    print(*a, file=sys.stderr, flush=True)


async def call(client, name, arguments, **kw):
    """tools/call that reports errors instead of raising (the scenarios provoke errors on purpose)."""
    try:
        r = await client.call_tool(name, arguments, **kw)
        log(name, arguments, "->", [getattr(c, "text", c) for c in r.content], "isError" if r.is_error else "")
        return r
    except Exception as e:  # noqa: BLE001
        log(name, arguments, "-> error:", type(e).__name__, e)
        return None


async def basic_calls(client, calls=BASIC_CALLS, pause=0.1):
    tools = await client.list_tools()
    log("tools", [t.name for t in tools.tools])
    for name, arguments in calls:
        await call(client, name, arguments)
        await asyncio.sleep(pause)


def header_hook(rewrite):
    """An httpx2 client whose request hook rewrites headers (as an HTTP middleware/wrapper in the client app)."""
    import httpx2

    async def hook(request):
        rewrite(request)

    return httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300), event_hooks={"request": [hook]})


async def run_client(args) -> None:
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    url, sc = args.url, args.scenario

    if sc == "basic":  # mcp_sample's session
        async with Client(url, mode="legacy") as c:
            log("negotiated", c.protocol_version)
            await basic_calls(c)

    elif sc == "basic-twice":  # the basic session, then the application creates a new Client: a 2nd session
        for n in (1, 2):
            async with Client(url, mode="legacy") as c:
                log(f"session {n} negotiated", c.protocol_version)
                await basic_calls(c)
            if n == 1:
                await asyncio.sleep(0.2)

    elif sc == "stream-lost":  # the 'work' reply is cut by the gateway; the app goes on
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("work", {}), ("echo", {"text": "after"})])

    elif sc in ("polling", "resume"):  # tools that close their stream; the SDK resumes with GET + Last-Event-ID
        before, after = (0, 0) if sc == "polling" else (2, 1)
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("poll_job", {"before": before, "after": after}),
                                  ("echo", {"text": "after"})])

    elif sc == "stalled":  # a 65 s tool; no client timeout below 300 s
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("slow", {"seconds": 65}), ("echo", {"text": "after"})])

    elif sc == "steps":  # a tool whose reply carries priming + 3 notifications + response
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("steps", {"n": 3, "interval": 0.05}),
                                  ("echo", {"text": "after"})])

    elif sc == "buffered":  # 12 log lines 1 s apart (held back by the buffering gateway)
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("steps", {"n": 12, "interval": 1.0}),
                                  ("echo", {"text": "after"})])

    elif sc == "unknown-cursor":  # the SDK's own resumption API, fed a cursor this session never issued
        import mcp_types as types
        from mcp.shared.message import ClientMessageMetadata

        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2})])
            req = types.CallToolRequest(params=types.CallToolRequestParams(name="echo", arguments={"text": "resume"}))
            try:
                await c.session.send_request(req, types.CallToolResult, request_read_timeout_seconds=2.0,
                                             metadata=ClientMessageMetadata(resumption_token="1000"))
            except Exception as e:  # noqa: BLE001
                log("resume with Last-Event-ID 1000 -> error:", type(e).__name__, e)
            await call(c, "echo", {"text": "after"})

    elif sc == "missing-cursor":  # the server closes the GET stream; the SDK reconnects it (without Last-Event-ID)
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("drop_get", {})])
            await asyncio.sleep(2.0)
            await call(c, "echo", {"text": "after"})

    elif sc.startswith("stale-"):  # the server forgets the session after 2 calls (gateway forget:2:MODE)
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, BASIC_CALLS[:2])
            r = await call(c, "add", {"a": 40, "b": 2})  # -> rejected, session unknown
            if r is None and sc == "stale-retry":
                await asyncio.sleep(1.0)
                await call(c, "add", {"a": 40, "b": 2})  # the app retries on the same client: old session id
                await asyncio.sleep(1.0)
                await call(c, "echo", {"text": "bye"})
        # Client exit: the SDK sends DELETE with the dead session id
        if sc == "stale-reinit":  # application code re-creates the client: a fresh initialize
            async with Client(url, mode="legacy") as c:
                log("re-initialized, negotiated", c.protocol_version)
                await call(c, "add", {"a": 40, "b": 2})
                await call(c, "echo", {"text": "bye"})

    elif sc == "big-echo":  # one call with a 2 KB argument (refused by the gateway's body limit)
        async with Client(url, mode="legacy") as c:
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("echo", {"text": "x" * 2048}),
                                  ("echo", {"text": "small"})])

    elif sc == "retry-5xx":  # the app retries a failed call up to 3 times, 0.5 s apart
        async with Client(url, mode="legacy") as c:
            await c.list_tools()
            for name, arguments in BASIC_CALLS:
                for attempt in range(4):
                    r = await call(c, name, arguments)
                    if r is not None and not r.is_error:
                        break
                    await asyncio.sleep(0.5)
                await asyncio.sleep(0.1)

    elif sc == "header-mismatch":  # client-side wrapper pins MCP-Protocol-Version: 2025-06-18 after initialize
        def pin(request):
            if "mcp-protocol-version" in request.headers:
                request.headers["MCP-Protocol-Version"] = "2025-06-18"

        async with Client(streamable_http_client(url, http_client=header_hook(pin)), mode="legacy") as c:
            log("negotiated", c.protocol_version)
            await basic_calls(c)

    elif sc == "method-mismatch":  # 2026-07-28: a wrapper sets Mcp-Method: tools/list on tools/call(echo)
        def skew(request):
            if request.method == "POST" and b'"name":"echo"' in request.content:
                request.headers["Mcp-Method"] = "tools/list"

        async with Client(streamable_http_client(url, http_client=header_hook(skew))) as c:
            log("negotiated", c.protocol_version)
            await basic_calls(c, [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}), ("add", {"a": 40, "b": 2})])

    elif sc == "modern":  # plain mcp 2.x client, default mode (server/discover, 2026-07-28, stateless)
        async with Client(url) as c:
            log("negotiated", c.protocol_version)
            await basic_calls(c)

    elif sc == "modern-mixed":  # 2026-07-28: JSON replies, then an SSE reply (progress), then JSON again
        async def progress(p, total, message):
            log("progress", p, total)

        async with Client(url) as c:
            log("negotiated", c.protocol_version)
            await basic_calls(c, BASIC_CALLS[:2])
            await call(c, "count", {"n": 3}, progress_callback=progress)
            await call(c, "add", {"a": 40, "b": 2})
            await call(c, "count", {"n": 2}, progress_callback=progress)
            await call(c, "echo", {"text": "bye"})

    else:
        raise SystemExit(f"unknown scenario {sc}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--app", choices=["streamable", "sse"], default="streamable")
    s.add_argument("--json", action="store_true")
    s.add_argument("--event-store", choices=["counter", "uuid", "replay-all"])
    s.add_argument("--retry-ms", type=int)
    s.add_argument("--json-first", type=int, default=0)
    s.add_argument("--gateway", action="append", default=[])
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--scenario", default="basic")
    c.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    if args.cmd == "server":
        run_server(args)
    else:
        async def guarded():
            async with asyncio.timeout(args.timeout):
                await run_client(args)

        asyncio.run(guarded())


if __name__ == "__main__":
    main()

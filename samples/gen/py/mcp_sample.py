"""Python MCP SDK server and client used to generate the mcptap sample captures.

Server (Streamable HTTP, 2025-era sessions, listens on 127.0.0.1 unless --host says otherwise):
    python mcp_sample.py server --port 18101 [--json] [--event-store] [--json-first N] [--host ADDR]

    --json          answer every POST with application/json (MCPServer json_response=True)
    --event-store   configure an in-memory event store, so SSE events carry `id:` lines
    --json-first N  put the "rewriting gateway" ASGI middleware in front of the SDK app: for
                    the first N POST responses of each session that arrive as text/event-stream,
                    buffer the SSE body and return the JSON-RPC message as application/json
                    (dropping any id: lines); later POST responses pass through unchanged.
    --host ADDR     listen on ADDR (capture_impaired.sh: the server's address inside its own network
                    namespace). The SDK only turns on its DNS-rebinding Host check for loopback hosts.

Client (the real SDK client, legacy/2025 initialize handshake, bounded):
    python mcp_sample.py client --url http://127.0.0.1:18101/mcp

    initialize, notifications/initialized, tools/list, 4 x tools/call, DELETE on close.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys

HOST = "127.0.0.1"


# --------------------------------------------------------------------------- server
def build_server():
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("mcptap-sample-py", version="1.0.0")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    return server


def make_event_store():
    from mcp.server.streamable_http import EventMessage, EventStore

    class CounterEventStore(EventStore):
        """Tiny in-memory event store: ids are one integer counter shared by all streams."""

        def __init__(self) -> None:
            self._counter = itertools.count(1)
            self._events: list[tuple[str, str, object]] = []  # (event_id, stream_id, message|None)

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


class JsonFirstGateway:
    """ASGI middleware imitating a response-rewriting gateway.

    For the first `n` POST responses per session that come back as text/event-stream with
    status 200, buffer the SSE body, pull the JSON-RPC message(s) out of the `data:` lines
    and answer with an application/json body instead. Everything else (202s, GET streams,
    DELETE, later POSTs) passes through untouched.
    """

    def __init__(self, app, n: int) -> None:
        self.app = app
        self.n = n
        self.rewritten: dict[str, int] = {}  # session id -> responses rewritten so far

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return

        state = {"buffering": False, "status": 200, "headers": [], "buf": b"", "done": False}
        req_sid = dict(scope["headers"]).get(b"mcp-session-id", b"").decode()

        def parse_events(raw: bytes):
            text = raw.decode("utf-8").replace("\r\n", "\n")
            messages = []
            for block in text.split("\n\n"):
                data = [ln[5:].lstrip(" ") if ln.startswith("data:") else None for ln in block.split("\n")]
                data = [d for d in data if d is not None]
                if data and "".join(data).strip():
                    messages.append(json.loads("\n".join(data)))
            return messages, text.endswith("\n\n")

        async def finish():
            messages, _ = parse_events(state["buf"])
            body_obj = messages[0] if len(messages) == 1 else messages
            body = json.dumps(body_obj, separators=(",", ":")).encode()
            headers = [
                (k, v)
                for k, v in state["headers"]
                if k.lower() not in (b"content-type", b"content-length", b"transfer-encoding",
                                     b"cache-control", b"x-accel-buffering", b"connection")
            ]
            headers.append((b"content-type", b"application/json"))
            headers.append((b"content-length", str(len(body)).encode()))
            await send({"type": "http.response.start", "status": state["status"], "headers": headers})
            await send({"type": "http.response.body", "body": body, "more_body": False})
            state["done"] = True

        async def wrapped_send(message):
            if state["done"]:
                return  # rewritten response already sent; drop the rest of the SSE stream
            if message["type"] == "http.response.start":
                hdrs = {k.lower(): v for k, v in message.get("headers", [])}
                ctype = hdrs.get(b"content-type", b"").decode()
                sid = hdrs.get(b"mcp-session-id", b"").decode() or req_sid
                if (message["status"] == 200 and ctype.startswith("text/event-stream") and sid
                        and self.rewritten.get(sid, 0) < self.n):
                    self.rewritten[sid] = self.rewritten.get(sid, 0) + 1
                    state.update(buffering=True, status=message["status"], headers=list(message.get("headers", [])))
                    return
                await send(message)
                return
            if message["type"] == "http.response.body" and state["buffering"]:
                state["buf"] += message.get("body", b"")
                messages, complete = parse_events(state["buf"])
                has_response = complete and any(
                    isinstance(m, dict) and ("result" in m or "error" in m) for m in messages
                )
                if has_response or not message.get("more_body", False):
                    await finish()
                return
            await send(message)

        await self.app(scope, receive, wrapped_send)


def run_server(args) -> None:
    import uvicorn

    server = build_server()
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        json_response=args.json,
        stateless_http=False,
        event_store=make_event_store() if args.event_store else None,
        host=args.host,
    )
    if args.json_first:
        app = JsonFirstGateway(app, args.json_first)
    if args.tls_cert:
        # HTTPS for the TLS samples: our own server-side SSLContext (uvicorn builds one from its options;
        # replacing the factory lets us pin the version, the TLS 1.2 cipher and log the session secrets
        # in NSS key-log format). TLS 1.3 suites are pinned with OPENSSL_CONF (capture_tls.sh): Python's
        # ssl module has no call for them.
        import ssl
        import uvicorn.config

        def make_context(*_a, **_k):
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(args.tls_cert, args.tls_key)
            if args.tls_max == "1.2":
                ctx.maximum_version = ssl.TLSVersion.TLSv1_2
            if args.tls_ciphers:
                ctx.set_ciphers(args.tls_ciphers)
            if args.keylog:
                ctx.keylog_filename = args.keylog
            return ctx

        uvicorn.config.create_ssl_context = make_context
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", lifespan="on",
                    ssl_certfile=args.tls_cert, ssl_keyfile=args.tls_key)
        return
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", lifespan="on")


# --------------------------------------------------------------------------- client
async def run_client(args) -> None:
    from mcp.client.client import Client

    async with asyncio.timeout(args.timeout):
        async with Client(args.url, mode="legacy") as client:
            print("negotiated", client.protocol_version, file=sys.stderr)
            tools = await client.list_tools()
            print("tools", [t.name for t in tools.tools], file=sys.stderr)
            calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}),
                     ("add", {"a": 40, "b": 2}), ("echo", {"text": "bye"})]
            for name, arguments in calls[: args.calls]:
                result = await client.call_tool(name, arguments)
                print(name, arguments, "->", [c.text for c in result.content], file=sys.stderr)
                await asyncio.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--json", action="store_true")
    s.add_argument("--event-store", action="store_true")
    s.add_argument("--json-first", type=int, default=0)
    s.add_argument("--host", default=HOST, help="address to listen on (default 127.0.0.1)")
    s.add_argument("--tls-cert", help="serve HTTPS with this certificate (PEM)")
    s.add_argument("--tls-key", help="private key of --tls-cert (PEM)")
    s.add_argument("--tls-max", choices=["1.2", "1.3"], default="1.3", help="highest TLS version offered")
    s.add_argument("--tls-ciphers", help="OpenSSL cipher string for TLS 1.2 (e.g. ECDHE-RSA-AES128-GCM-SHA256)")
    s.add_argument("--keylog", help="append the session secrets here (NSS key log format)")
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--calls", type=int, default=4)
    c.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    if args.cmd == "server":
        run_server(args)
    else:
        asyncio.run(run_client(args))


if __name__ == "__main__":
    main()

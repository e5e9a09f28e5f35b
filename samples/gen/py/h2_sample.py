"""HTTP/2 samples: the official Python SDK's ASGI app served by hypercorn (h2c and h2 over TLS), and the SDK
client over httpx2 with http2=True (pip `h2`). Reuses mcp_sample.py's server pieces (the SDK app, the event
store, the `--json-first` rewriting gateway), so the only difference from the HTTP/1.1 samples is the transport.

Server:
    python h2_sample.py server --port 18501 [--json] [--event-store] [--json-first N] [--tls-cert C --tls-key K]
      hypercorn speaks h2c (prior knowledge and `Upgrade: h2c`) on cleartext, and offers ALPN h2 with TLS.
      A `sleep` tool is added to the SDK server for the reset scenario.

Client (the real SDK client, bounded):
    python h2_sample.py client --url http://127.0.0.1:18501/mcp            # h2c, prior knowledge
    python h2_sample.py client --url https://127.0.0.1:18506/mcp --ca C --keylog K   # h2 over TLS (ALPN)
      --reset: the session driven by hand with the `h2` library (see reset_mid_call): a `sleep` call whose SSE
      reply is reset (RST_STREAM CANCEL) right after its head; then one clean call.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mcp_sample  # noqa: E402  (the shared server pieces)

HOST = "127.0.0.1"


def run_server(args) -> None:
    import hypercorn.asyncio
    from hypercorn.config import Config

    server = mcp_sample.build_server()

    @server.tool()
    async def sleep(seconds: float) -> str:
        """Sleep, then answer (the reset scenario cancels it)."""
        await asyncio.sleep(seconds)
        return "slept"

    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        json_response=args.json,
        stateless_http=False,
        event_store=mcp_sample.make_event_store() if args.event_store else None,
        host=HOST,
    )
    if args.json_first:
        app = mcp_sample.JsonFirstGateway(app, args.json_first)
    config = Config()
    config.bind = [f"{HOST}:{args.port}"]
    config.loglevel = "WARNING"
    if args.tls_cert:
        config.certfile = args.tls_cert
        config.keyfile = args.tls_key
        config.alpn_protocols = ["h2", "http/1.1"]
    asyncio.run(hypercorn.asyncio.serve(app, config))


async def run_client(args) -> None:
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    if args.url.startswith("https:"):
        ctx = ssl.create_default_context(cafile=args.ca)
        if args.keylog:
            ctx.keylog_filename = args.keylog
        http = httpx2.AsyncClient(http2=True, verify=ctx, timeout=timeout)
    else:
        # RFC 9113 §3.3: h2c with prior knowledge (httpx2 needs HTTP/1.1 off to send the preface).
        http = httpx2.AsyncClient(http1=False, http2=True, timeout=timeout)
    if args.reset:
        async with asyncio.timeout(args.timeout):
            await reset_mid_call(args.url)
        return
    async with http:
        async with asyncio.timeout(args.timeout):
            async with Client(streamable_http_client(args.url, http_client=http), mode="legacy") as client:
                print("negotiated", client.protocol_version, file=sys.stderr)
                tools = await client.list_tools()
                print("tools", [t.name for t in tools.tools], file=sys.stderr)
                calls = [("add", {"a": 1, "b": 2}), ("echo", {"text": "hello"}),
                         ("add", {"a": 40, "b": 2}), ("echo", {"text": "bye"})]
                for name, arguments in calls[: args.calls]:
                    result = await client.call_tool(name, arguments)
                    print(name, arguments, "->", [c.text for c in result.content], file=sys.stderr)
                    await asyncio.sleep(0.1)


async def reset_mid_call(url: str) -> None:
    """The exchanges the SDK client makes, driven by hand with the `h2` library (the HTTP/2 stack httpx2 uses),
    so a call can be abandoned mid-stream: initialize, notifications/initialized, a `sleep` tools/call whose
    text/event-stream reply is reset with RST_STREAM (CANCEL) right after its head, then a call that completes
    and the session's DELETE. h2c with prior knowledge."""
    import json
    from urllib.parse import urlsplit

    import h2.config
    import h2.connection
    import h2.errors
    import h2.events

    u = urlsplit(url)
    reader, writer = await asyncio.open_connection(u.hostname, u.port)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    writer.write(conn.data_to_send())
    sid = ""

    async def exchange(method: str, body: dict | None, stop_at_head: bool = False) -> tuple[dict, bytes]:
        nonlocal sid
        stream = conn.get_next_available_stream_id()
        headers = [(":method", method), (":scheme", "http"), (":path", u.path), (":authority", u.netloc),
                   ("content-type", "application/json"), ("accept", "application/json, text/event-stream")]
        if sid:
            headers += [("mcp-session-id", sid), ("mcp-protocol-version", "2025-11-25")]
        data = json.dumps(body).encode() if body is not None else b""
        conn.send_headers(stream, headers, end_stream=not data)
        if data:
            conn.send_data(stream, data, end_stream=True)
        writer.write(conn.data_to_send())
        await writer.drain()
        head: dict = {}
        got = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            for ev in conn.receive_data(chunk):
                if isinstance(ev, h2.events.ResponseReceived) and ev.stream_id == stream:
                    head = dict(ev.headers)
                    if stop_at_head:
                        conn.reset_stream(stream, h2.errors.ErrorCodes.CANCEL)
                        writer.write(conn.data_to_send())
                        return head, got
                elif isinstance(ev, h2.events.DataReceived):
                    conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
                    if ev.stream_id == stream:
                        got += ev.data
                elif isinstance(ev, h2.events.StreamEnded) and ev.stream_id == stream:
                    writer.write(conn.data_to_send())
                    return head, got
            writer.write(conn.data_to_send())

    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "h2-reset", "version": "1"}}}
    head, _ = await exchange("POST", init)
    sid = head["mcp-session-id"]
    await exchange("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"})
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "sleep", "arguments": {"seconds": 3}}}
    head, _ = await exchange("POST", call, stop_at_head=True)
    print("sleep answered", head.get(":status"), head.get("content-type"), "- reset it (RST_STREAM CANCEL)", file=sys.stderr)
    await asyncio.sleep(0.2)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}
    _, body = await exchange("POST", call)
    print("add ->", body.decode().strip()[:60], file=sys.stderr)
    await exchange("DELETE", None)
    conn.close_connection()
    writer.write(conn.data_to_send())
    await writer.drain()
    writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("server")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--json", action="store_true")
    s.add_argument("--event-store", action="store_true")
    s.add_argument("--json-first", type=int, default=0)
    s.add_argument("--tls-cert")
    s.add_argument("--tls-key")
    c = sub.add_parser("client")
    c.add_argument("--url", required=True)
    c.add_argument("--calls", type=int, default=4)
    c.add_argument("--timeout", type=float, default=30.0)
    c.add_argument("--ca", help="CA file (the server's self-signed certificate) for https")
    c.add_argument("--keylog", help="append the TLS session secrets here (NSS key log format)")
    c.add_argument("--reset", action="store_true")
    args = parser.parse_args()
    if args.cmd == "server":
        run_server(args)
    else:
        asyncio.run(run_client(args))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""MCP over TLS 1.3 with KeyUpdate messages, for samples/tls-13-keyupdate.pcap (capture_tls.sh).

Neither SDK can make a TLS stack send KeyUpdate (RFC 8446 §4.6.3), and Python's ssl module has no call for
it, so this client drives `openssl s_client`: it writes raw HTTP/1.1 requests of a real MCP exchange with the
Python SDK server (initialize, notifications/initialized, tools/list, tools/call) and, between them, s_client's
`K` command (KeyUpdate with update_requested: both sides move to new traffic keys) and `k` (the client's keys
only). Each write is one chunk with a pause after it, because s_client treats a read chunk that starts with a
command letter as a command.

    keyupdate_client.py PORT        (the server's certificate is not verified: it is ours, on 127.0.0.1)

Bounded: a fixed exchange, each wait at most one second; exit 1 if a reply is missing.
"""
import json
import os
import re
import select
import subprocess
import sys
import time


def main() -> int:
    port = sys.argv[1]
    p = subprocess.Popen(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-tls1_3", "-servername", "127.0.0.1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = bytearray()

    def read_for(seconds: float) -> None:
        end = time.time() + seconds
        while time.time() < end:
            ready, _, _ = select.select([p.stdout], [], [], 0.05)
            if ready:
                chunk = os.read(p.stdout.fileno(), 65536)
                if not chunk:
                    return
                out.extend(chunk)

    def send(raw: bytes, pause: float) -> None:
        p.stdin.write(raw)
        p.stdin.flush()
        read_for(pause)

    def post(body: dict, sid: str | None, pause: float = 0.7) -> None:
        data = json.dumps(body).encode()
        head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                f"Accept: application/json, text/event-stream\r\nContent-Length: {len(data)}\r\n")
        if sid:
            head += f"Mcp-Session-Id: {sid}\r\nMCP-Protocol-Version: 2025-06-18\r\n"
        send(head.encode() + b"\r\n" + data, pause)

    read_for(1.0)  # handshake
    post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "openssl-s_client", "version": "3"}}}, None, 1.0)
    m = re.search(rb"mcp-session-id: *([0-9a-zA-Z-]+)", out, re.I)
    if not m:
        print("no Mcp-Session-Id in the initialize reply", file=sys.stderr)
        p.kill()
        return 1
    sid = m.group(1).decode()
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid, 0.5)
    send(b"K\n", 0.5)
    post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, sid)
    send(b"k\n", 0.5)
    post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}, sid)
    send(b"Q\n", 0.5)
    p.terminate()
    p.wait(timeout=5)
    text = bytes(out)
    replies = len(re.findall(rb"HTTP/1\.1 20[02]", text))
    updates = text.count(b"KEYUPDATE")
    print(f"session {sid}: {replies} replies, {updates} KeyUpdate commands sent")
    return 0 if replies == 4 and updates == 2 else 1


if __name__ == "__main__":
    sys.exit(main())

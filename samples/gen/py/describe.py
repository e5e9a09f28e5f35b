"""Describe the HTTP/MCP exchanges in a sample capture (independent of tshark's HTTP reassembly).

    python describe.py FILE.pcap[ng]

Reads raw TCP payloads with tshark (any link type, pcap or pcapng), rebuilds each TCP direction,
parses HTTP/1.1 requests and responses itself (Content-Length, chunked, and chunked streams cut
before their terminator), decodes SSE events and JSON-RPC bodies, and prints one line per HTTP
exchange with 1-based frame numbers as Wireshark numbers them:

    req=<frame of first request byte>  resp=<frame of the status line>  end=<frame of the last body byte>

plus how each TCP connection ended (who sent the first FIN/RST, in which frame).

    python describe.py --posts FILE    # e.g. "json 202 json json sse sse sse"
    python describe.py --table FILE    # markdown table of the exchanges
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

FIELDS = ["frame.number", "tcp.stream", "ip.src", "tcp.srcport", "ip.dst", "tcp.dstport",
          "tcp.flags.fin", "tcp.flags.reset", "tcp.seq_raw", "tcp.payload", "tcp.flags.syn"]


def read_frames(path):
    cmd = ["tshark", "-r", path, "-o", "tcp.desegment_tcp_streams:FALSE", "-Y", "tcp", "-T", "fields",
           "-E", "separator=\t"] + [x for f in FIELDS for x in ("-e", f)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split("\t")
        parts += [""] * (len(FIELDS) - len(parts))
        yield dict(zip(FIELDS, parts))


class Bytes:
    """A TCP direction as bytes plus, for each byte offset, the frame that carried it."""

    def __init__(self):
        self.data = bytearray()
        self.frames: list[int] = []   # frame number per byte
        self.next_seq = None
        self.pending: dict[int, tuple[int, bytes]] = {}  # out-of-order segments by sequence number

    def syn(self, seq: int):
        """The SYN takes one sequence number: data starts at ISN + 1 (RFC 9293 §3.4)."""
        if self.next_seq is None:
            self.next_seq = (seq + 1) & 0xFFFFFFFF

    def add(self, frame: int, seq: int, payload: bytes):
        if self.next_seq is None:
            self.next_seq = seq  # no SYN seen: start at the first data
        if seq > self.next_seq:  # out of order (impaired captures): wait for the bytes before it
            self.pending.setdefault(seq, (frame, payload))
            return
        self._append(frame, seq, payload)
        while self.pending:
            s = min(self.pending)
            if s > self.next_seq:
                break
            f, p = self.pending.pop(s)
            self._append(f, s, p)

    def _append(self, frame: int, seq: int, payload: bytes):
        payload = payload[self.next_seq - seq:]  # retransmission: keep only new bytes
        self.data += payload
        self.frames += [frame] * len(payload)
        self.next_seq += len(payload)

    def frame_at(self, off: int):
        return self.frames[min(off, len(self.frames) - 1)] if self.frames else None


def parse_headers(buf: bytes, off: int):
    end = buf.find(b"\r\n\r\n", off)
    if end < 0:
        return None
    lines = buf[off:end].decode("latin-1").split("\r\n")
    headers = []
    for ln in lines[1:]:
        k, _, v = ln.partition(":")
        headers.append((k.strip().lower(), v.strip()))
    return lines[0], headers, end + 4


def parse_body(buf: bytes, off: int, headers: dict, is_response: bool, status: int | None):
    """Return (body bytes, end offset, completion note)."""
    if is_response and (status in (204, 304) or (status and 100 <= status < 200)):
        return b"", off, "no body"
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        pos = off
        while True:
            eol = buf.find(b"\r\n", pos)
            if eol < 0:
                return bytes(body), len(buf), "chunked, cut before terminator"
            size = int(buf[pos:eol].split(b";")[0] or b"0", 16)
            if size == 0:
                end = buf.find(b"\r\n", eol + 2)
                return bytes(body), (end + 2 if end >= 0 else len(buf)), "chunked, terminated"
            if eol + 2 + size > len(buf):
                body += buf[eol + 2:]
                return bytes(body), len(buf), "chunked, cut inside a chunk"
            body += buf[eol + 2: eol + 2 + size]
            pos = eol + 2 + size + 2
    if "content-length" in headers:
        n = int(headers["content-length"])
        return buf[off: off + n], off + n, f"content-length {n}"
    if is_response:
        return buf[off:], len(buf), "until close"
    return b"", off, "no body"


def rpc_summary(obj) -> str:
    if isinstance(obj, list):
        return "[" + ", ".join(rpc_summary(o) for o in obj) + "]"
    if not isinstance(obj, dict):
        return "?"
    if "method" in obj:
        return f"{obj['method']}" + (f"#{obj['id']}" if "id" in obj else "")
    if "result" in obj:
        return f"result#{obj.get('id')}"
    if "error" in obj:
        return f"error#{obj.get('id')}({obj['error'].get('code')})"
    return "?"


def sse_events(body: bytes):
    text = body.decode("utf-8", "replace").replace("\r\n", "\n")
    events = []
    for block in text.split("\n\n")[:-1] if text.endswith("\n\n") else text.split("\n\n"):
        if not block.strip():
            continue
        ev = {"id": None, "data": [], "retry": None, "event": None}
        for ln in block.split("\n"):
            if ln.startswith(":"):
                continue
            k, _, v = ln.partition(":")
            v = v[1:] if v.startswith(" ") else v
            if k == "data":
                ev["data"].append(v)
            elif k in ("id", "retry", "event"):
                ev[k] = v
        data = "\n".join(ev["data"])
        try:
            ev["rpc"] = rpc_summary(json.loads(data)) if data.strip() else "(empty)"
        except ValueError:
            ev["rpc"] = "(not json)"
        events.append(ev)
    return events


def analyse(path: str):
    conns = {}                      # stream -> info
    dirs = defaultdict(Bytes)       # (stream, is_client) -> Bytes
    for f in read_frames(path):
        st = int(f["tcp.stream"])
        frame = int(f["frame.number"])
        sport, dport = int(f["tcp.srcport"]), int(f["tcp.dstport"])
        if st not in conns:
            conns[st] = {"client": (f["ip.src"], sport), "server": (f["ip.dst"], dport), "first": frame, "ends": []}
        is_client = (f["ip.src"], sport) == conns[st]["client"]
        who = "client" if is_client else "server"
        if f["tcp.flags.fin"] in ("1", "True"):
            conns[st]["ends"].append(f"FIN by {who} @{frame}")
        if f["tcp.flags.reset"] in ("1", "True"):
            conns[st]["ends"].append(f"RST by {who} @{frame}")
        if f["tcp.flags.syn"] in ("1", "True"):
            dirs[(st, is_client)].syn(int(f["tcp.seq_raw"]))
        payload = bytes.fromhex(f["tcp.payload"].replace(":", "")) if f["tcp.payload"] else b""
        if payload:
            dirs[(st, is_client)].add(frame, int(f["tcp.seq_raw"]), payload)

    exchanges = []
    for st, c in sorted(conns.items()):
        reqs, resps = [], []
        for is_client, out in ((True, reqs), (False, resps)):
            b = dirs.get((st, is_client))
            if not b:
                continue
            off = 0
            while off < len(b.data):
                h = parse_headers(bytes(b.data), off)
                if not h:
                    break
                start, headers, body_off = h
                hd = dict(headers)
                status = None if is_client else int(start.split()[1])
                body, end, note = parse_body(bytes(b.data), body_off, hd, not is_client, status)
                out.append({"frame": b.frame_at(off), "end_frame": b.frame_at(max(end - 1, off)),
                            "start": start, "h": hd, "body": body, "note": note})
                off = end
        for i, rq in enumerate(reqs):
            exchanges.append((rq["frame"], st, rq, resps[i] if i < len(resps) else None))

    return conns, sorted(exchanges, key=lambda e: e[0])


def post_kinds(path: str) -> str:
    """Response kind of every POST in request order: json, sse (no ids), sse-ids, or the status."""
    _, exchanges = analyse(path)
    kinds = []
    for _, _, rq, rs in exchanges:
        if not rq["start"].startswith("POST"):
            continue
        if rs is None:
            kinds.append("none")
            continue
        ctype = rs["h"].get("content-type", "")
        status = rs["start"].split()[1]
        if status != "200":
            kinds.append(status)
        elif ctype.startswith("application/json"):
            kinds.append("json")
        elif ctype.startswith("text/event-stream"):
            ids = any(e["id"] is not None for e in sse_events(rs["body"]))
            kinds.append("sse-ids" if ids else "sse")
        else:
            kinds.append(ctype or "?")
    return " ".join(kinds)


def table(path: str) -> None:
    """Markdown table of the exchanges (used for the README)."""
    conns, exchanges = analyse(path)
    print("| conn | req | request | resp | end | status | content-type | body / SSE events |")
    print("|---|---|---|---|---|---|---|---|")
    for _, st, rq, rs in exchanges:
        method = rq["start"].split()[0]
        rpc = ""
        if rq["body"]:
            try:
                rpc = " " + rpc_summary(json.loads(rq["body"]))
            except ValueError:
                rpc = " (not json)"
        if rs is None:
            print(f"| {st} | {rq['frame']} | {method}{rpc} | - | - | - | - | no response |")
            continue
        ctype = rs["h"].get("content-type", "(none)")
        if ctype.startswith("text/event-stream"):
            evs = sse_events(rs["body"])
            body = "; ".join(f"id={e['id'] if e['id'] is not None else '-'} {e['rpc']}" for e in evs) or "no events"
            body += {"chunked, terminated": " (0-chunk seen)", "chunked, cut before terminator": " (closed before 0-chunk)"}.get(
                rs["note"], f" ({rs['note']})")
        elif rs["body"]:
            try:
                body = rpc_summary(json.loads(rs["body"]))
            except ValueError:
                body = "(not json)"
        else:
            body = "empty"
        print(f"| {st} | {rq['frame']} | {method}{rpc} | {rs['frame']} | {rs['end_frame']} | {rs['start'].split()[1]} "
              f"| {ctype} | {body} |")
    ends = "; ".join(f"conn {st}: " + (", ".join(c["ends"][:2]) or "open") for st, c in sorted(conns.items()))
    print(f"\nConnection ends: {ends}.")


def describe(path: str) -> None:
    conns, exchanges = analyse(path)
    print(f"# {path}")
    for st, c in sorted(conns.items()):
        print(f"conn {st}: {c['client'][0]}:{c['client'][1]} -> {c['server'][0]}:{c['server'][1]}"
              f" first frame {c['first']}; " + (", ".join(c["ends"][:2]) or "still open"))
    for _, st, rq, rs in exchanges:
        method, target = rq["start"].split()[:2]
        sid = rq["h"].get("mcp-session-id", "-")
        rpc = ""
        if rq["body"]:
            try:
                rpc = rpc_summary(json.loads(rq["body"]))
            except ValueError:
                rpc = "(not json)"
        extra = ""
        if "mcp-protocol-version" in rq["h"]:
            extra += f" pv={rq['h']['mcp-protocol-version']}"
        if "last-event-id" in rq["h"]:
            extra += f" last-event-id={rq['h']['last-event-id']}"
        line = f"conn {st} req={rq['frame']} {method} {target} {rpc} sid={sid}{extra}"
        if rs is None:
            print(line + "  => no response")
            continue
        status = rs["start"].split()[1]
        ctype = rs["h"].get("content-type", "-")
        rsid = rs["h"].get("mcp-session-id", "-")
        line += f"  => resp={rs['frame']} {status} {ctype} resp-sid={rsid} end={rs['end_frame']} ({rs['note']})"
        if ctype.startswith("text/event-stream"):
            evs = sse_events(rs["body"])
            line += " events: " + ("; ".join(
                f"[id={e['id'] if e['id'] is not None else '-'}" + (f" retry={e['retry']}" if e["retry"] else "")
                + f" {e['rpc']}]" for e in evs) or "none")
        elif rs["body"]:
            try:
                line += " body: " + rpc_summary(json.loads(rs["body"]))
            except ValueError:
                line += f" body: {rs['body'][:60]!r}"
        print(line)


if __name__ == "__main__":
    if sys.argv[1] == "--posts":   # one line: the kind of every POST response, for capture_all.sh's check
        print(post_kinds(sys.argv[2]))
        sys.exit(0)
    if sys.argv[1] == "--table":   # markdown table, as in samples/gen/README.md
        table(sys.argv[2])
        sys.exit(0)
    for p in sys.argv[1:]:
        describe(p)
        print()

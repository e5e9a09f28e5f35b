"""Listing of a sensor5 capture (sensor4's copy of sensor3's wire.py, copied: it lists captures with REAL capture loss): the agents group's listing (../agents/wire.py, i.e.
../replicas/wire.py with the mcp-method, mcp-name and user-agent heads, and ../wirelib.py's HTTP/1.1 parser),
imported from their paths, not copied. One change: wirelib's h1_segments assumes every byte was captured, so it is
replaced here by the same loop with gap handling. When a segment starts past the next byte expected in its
direction (the bytes between were lost by the capture), the line gets a note `CAPTURE GAP: N bytes missing (seq A..B)`
(a FIN or RST past the next byte expected gets the same note: the stream's tail was lost) and that direction's parser restarts: it skips bytes until the next HTTP/1.1 message head (`HTTP/1.1 NNN`, `POST /`,
`GET /`, `DELETE /`) and parses on from there. Bytes skipped so are noted as `(resync: N bytes skipped)`. So every
SSE event, body and head listed was captured whole from its start; a message whose start was lost is not listed.

    python wire.py - SERVER-PORT CAPTURE.pcap
"""

import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import wirelib  # noqa: E402  (../wirelib.py)

spec = importlib.util.spec_from_file_location("agents_wire", os.path.join(HERE, "..", "agents", "wire.py"))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)
wire = agents.wire
wire.HEADERS = wire.HEADERS + ("mcp-method", "mcp-name", "user-agent")

HEAD_RE = re.compile(rb"HTTP/1\.1 \d{3} |(?:GET|POST|DELETE) /")


class Resync(wirelib.H1Direction):
    """An H1Direction that starts (after a gap) by skipping to the next message head."""

    def __init__(self, *a):
        super().__init__(*a)
        self.state = "resync"

    def feed(self, data, notes):
        if self.state == "resync":
            self.buf += data
            m = HEAD_RE.search(self.buf)
            if not m:
                return
            if m.start():
                notes.append(f"(resync: {m.start()} bytes skipped)")
            data, self.buf, self.state = self.buf[m.start():], b"", "head"
        try:
            super().feed(data, notes)
        except ValueError as e:
            notes.append(f"(parser lost sync: {e}; resync)")
            self.buf, self.state = b"", "resync"


def h1_segments(path, server_ports, headers, cut):
    """wirelib.h1_segments with capture gaps noted and the parser restarted after each."""
    out = wirelib.tshark(["-r", path, "-T", "fields", "-E", "separator=\t", "-e", "frame.number",
                          "-e", "frame.time_relative", "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.dstport",
                          "-e", "tcp.flags.str", "-e", "tcp.len", "-e", "tcp.payload", "-e", "tcp.seq", "-Y", "tcp"])
    conns, seen = {}, {}
    for line in out.splitlines():
        num, t, stream, sport, dport, flags, tlen, payload, seq = (line.split("\t") + [""] * 9)[:9]
        flags = flags.replace("\u00b7", "").strip()
        to_server = dport in server_ports
        key = (stream, to_server)
        d = conns.setdefault(key, wirelib.H1Direction(to_server, headers, cut))
        notes = []
        if payload:
            data, start = bytes.fromhex(payload), int(seq)
            upto = seen.get(key)
            if upto is None and start > 1:
                notes.append(f"CAPTURE GAP: the first {start - 1} bytes of this direction missing (seq 1..{start})")
                d = conns[key] = Resync(to_server, headers, cut)
            elif upto is not None and start > upto:
                notes.append(f"CAPTURE GAP: {start - upto} bytes missing (seq {upto}..{start})")
                d = conns[key] = Resync(to_server, headers, cut)
            if upto is not None and start + len(data) <= upto:
                notes.append(f"TCP retransmission: these {len(data)} bytes were seen before (seq {start}), "
                             "not parsed again")
            else:
                d.feed(data[max(0, (upto or start) - start):], notes)
                seen[key] = max(start + len(data), upto or 0)
        elif ("F" in flags or "R" in flags) and seen.get(key) is not None and seq and int(seq) > seen[key]:
            notes.append(f"CAPTURE GAP: {int(seq) - seen[key]} bytes missing before this {'FIN' if 'F' in flags else 'RST'} "
                         f"(seq {seen[key]}..{seq})")
        if "F" in flags and seq:
            seen[key] = max(seen.get(key) or 0, int(seq) + int(tlen or 0) + 1)   # a FIN takes one sequence number
        if not (payload or any(x in flags for x in ("S", "F", "R"))):
            continue
        words = [w for w, f in (("SYN", "S"), ("ACK", "A"), ("FIN", "F"), ("RST", "R")) if f in flags]
        if "SYN" not in words:
            words = [w for w in words if w != "ACK"]
        what = " ".join(words + ([f"len={tlen}"] if payload else []))
        yield int(num), float(t), stream, to_server, dport if to_server else sport, what, notes


def guarded(*a, **kw):
    """Heads the summary cannot read (no status after a resync) are marked `HEAD ? ...`."""
    for num, t, stream, to_server, port, what, notes in h1_segments(*a, **kw):
        yield num, t, stream, to_server, port, what, [
            "HEAD ? " + n[5:] if n.startswith("HEAD ") and " " not in n[5:].split(" | ")[0] else n for n in notes]


wire.h1_segments = guarded

if __name__ == "__main__":
    wire.main()

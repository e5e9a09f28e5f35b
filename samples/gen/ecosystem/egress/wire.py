"""Listing of an egress capture (samples/gen/ecosystem/egress.sh): the agents group's listing (../agents/wire.py:
../replicas/wire.py with `mcp-method`, `mcp-name` and `user-agent` among the head fields, imported from its path, not
copied), with the heads a forward proxy adds or reads (`host`, `via`, `x-forwarded-for`, `x-cache`, `cache-control`)
among the head fields too, and its hops named as the relays group names them: the PROXY-PORT is squid ("front"), the
SERVER-PORT the Python SDK server behind it ("backend"; replicas/wire.py calls it "replica A"):

    python wire.py PROXY-PORT SERVER-PORT CAPTURE.pcap

A capture with a key log beside it (CAPTURE.keys: the CONNECT scenarios) is read through a TLS-aware version of
replicas/wire.py's segment walk (`tunnel_segments` below, which replaces `h1_segments` in that module): tshark
decrypts with `-o tls.keylog_file:CAPTURE.keys`; each TCP stream is cleartext HTTP/1.1 until a `CONNECT` is answered
2xx on it (client <-> squid), or TLS from its first byte (squid <-> server: squid relays the client's TLS bytes
unchanged); on a TLS stream each segment lists its TLS handshake messages and alerts (../wirelib.py tls_words) and
feeds what its application-data records decrypt to ../wirelib.py's H1Direction, so the tunnelled requests and replies
are listed as the cleartext ones are. Everything else (one line per TCP segment with a payload or SYN/FIN/RST,
Wireshark's 1-based frame numbers, a TCP retransmission listed as such and not parsed again, the request and session
summary) is replicas/wire.py's. Needs tshark (4.0.17 here).
"""

import builtins
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from wirelib import H1Direction, find_all, tls_words, tshark, tshark_json  # noqa: E402  (../wirelib.py)

spec = importlib.util.spec_from_file_location("agents_wire", os.path.join(HERE, "..", "agents", "wire.py"))
agents = importlib.util.module_from_spec(spec)
spec.loader.exec_module(agents)
wire = agents.wire  # replicas/wire.py, with the agents group's head fields

wire.HEADERS = wire.HEADERS + ("host", "via", "x-forwarded-for", "x-cache", "cache-control")
KEYS = None  # the key log, when the capture has one


def _print(*args, **kwargs):
    """replicas/wire.py's print, with its names of the upstreams ("replica A", "replica B") read as "backend" and
    "backend 2" (the listing's hop column keeps its width), and its first line saying how a TLS capture was read."""
    out = []
    for a in args:
        s = str(a).replace("replica A ", "backend   ").replace("replica A", "backend")
        s = s.replace("replica B", "backend 2")
        if KEYS and s.startswith("# ") and "every hop cleartext HTTP/1.1" in s:
            s = s.replace("every hop cleartext HTTP/1.1",
                          f"HTTP/1.1, CONNECT tunnels and TLS decrypted with {os.path.basename(KEYS)}")
        out.append(s)
    builtins.print(*out, **kwargs)


wire.print = _print  # module globals are looked up before builtins: only wire.main's output changes


def decrypted_blocks(path, keys):
    """frame number -> the "Decrypted TLS" byte blocks tshark's hex dump shows for it, in record order (tshark -P -x
    with the frame number as the only summary column, so each frame's dump follows a line holding its number)."""
    text = tshark(["-r", path, "-o", f"tls.keylog_file:{keys}", "-o", 'gui.column.format:"No.","%m"', "-P", "-x"])
    blocks, frame, cur, want = {}, 0, None, 0

    def close():
        assert cur is None or len(cur) == want, f"frame {frame}: decrypted block of {len(cur)} bytes, {want} announced"

    for line in text.splitlines():
        if re.fullmatch(r"\s*\d+", line):
            close()
            frame, cur = int(line), None
            continue
        m = re.fullmatch(r"([A-Za-z][A-Za-z0-9 -]*) \((\d+) bytes\):", line)
        if m:
            close()
            cur = None
            if m.group(1) == "Decrypted TLS":
                cur, want = bytearray(), int(m.group(2))
                blocks.setdefault(frame, []).append(cur)
        elif cur is not None and re.match(r"[0-9a-f]{4}  ", line):
            cur.extend(bytes.fromhex("".join(line[6:53].split())))
    close()
    return blocks


def tunnel_segments(path, server_ports, headers, cut):
    """replicas/wire.py's h1_segments (../wirelib.py), for a capture with CONNECT tunnels and TLS: the same tuples
    (frame, seconds, tcp stream, to_server, server port, words, notes), where a TLS segment's words add its handshake
    messages and alerts and its notes are what its decrypted application data completes."""
    blocks = decrypted_blocks(path, KEYS)
    conns, seen, mode, connect = {}, {}, {}, {}
    for pkt in tshark_json(path, "-o", f"tls.keylog_file:{KEYS}"):
        layers = pkt["_source"]["layers"]
        num = int(layers["frame"]["frame.number"])
        t = float(layers["frame"]["frame.time_relative"])
        tcp = layers.get("tcp")
        if not tcp:
            continue
        stream, sport, dport = tcp["tcp.stream"], tcp["tcp.srcport"], tcp["tcp.dstport"]
        to_server = dport in server_ports
        payload = bytes.fromhex(tcp.get("tcp.payload", "").replace(":", ""))
        flags = int(tcp.get("tcp.flags", "0x0"), 16)
        notes, extra = [], []
        if payload:
            start = int(tcp["tcp.seq"])
            upto = seen.get((stream, to_server), start)
            if start + len(payload) <= upto:
                notes.append(f"TCP retransmission: these {len(payload)} bytes were seen before (seq {start}), "
                             "not parsed again")
            else:
                seen[(stream, to_server)] = start + len(payload)
                if stream not in mode:
                    mode[stream] = "tls" if payload[:1] == b"\x16" else "h1"
                key = (stream, to_server, mode[stream])
                d = conns.setdefault(key, H1Direction(to_server, headers, cut))
                if mode[stream] == "h1":
                    d.feed(payload[max(0, upto - start):], notes)
                    for n in notes:
                        if n.startswith("HEAD CONNECT "):
                            connect[stream] = True
                        elif n.startswith("HEAD HTTP/1.1 2") and connect.get(stream) and not to_server:
                            mode[stream] = "tls"  # the tunnel is up: the next bytes either way are the client's TLS
                            notes.append("(CONNECT answered 2xx: tunnel; from here on this stream is TLS)")
                else:
                    tls = layers.get("tls")
                    extra = tls_words(tls) if tls else ["TLS (continuation)"]
                    mine = list(blocks.get(num, []))
                    for rec in find_all(tls, "tls.record"):
                        if "tls.record.opaque_type" not in rec:
                            continue  # a cleartext record (ClientHello, ServerHello, ChangeCipherSpec)
                        if not mine:
                            notes.append("(encrypted record not decrypted)")
                            continue
                        data = bytes(mine.pop(0))
                        if rec.get("tls.record.content_type") == "23":
                            d.feed(data, notes)
        if not (payload or flags & 0x7):
            continue
        words = [w for w, bit in (("SYN", 0x2), ("ACK", 0x10), ("FIN", 0x1), ("RST", 0x4)) if flags & bit]
        if "SYN" not in words:
            words = [w for w in words if w != "ACK"]
        what = " ".join(words + ([f"len={len(payload)}"] if payload else []) + extra)
        yield num, t, stream, to_server, dport if to_server else sport, what, notes


if __name__ == "__main__":
    keys = os.path.splitext(sys.argv[-1])[0] + ".keys"
    if os.path.exists(keys):
        KEYS = keys
        wire.h1_segments = tunnel_segments
    wire.main()

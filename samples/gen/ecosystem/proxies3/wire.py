"""Listing of a proxies3 capture (samples/gen/ecosystem/proxies3.sh), from tshark:

    python wire.py h1|h2c|tls FRONT-PORT BACKEND-PORT CAPTURE.pcap

The backend hop (proxy <-> MCP server, BACKEND-PORT) is cleartext HTTP/1.1 and is listed as ../proxies2/wire.py lists
its hops (../wirelib.py h1_segments: one line per TCP segment with a payload or SYN/FIN/RST, what its bytes complete:
message heads with the head fields that matter, chunk framing, each SSE event, a `:` comment as an event of its own,
each JSON body). The front hop (client <-> proxy, FRONT-PORT) is either HTTP/1.1 too (h1, listed the same way), or
HTTP/2: cleartext h2c with prior knowledge (tshark is told to decode FRONT-PORT as HTTP/2), or h2 over TLS decrypted
with the key log beside the capture (CAPTURE.keys); then one line per TCP segment with the TLS handshake messages, the
h2 preface and every HTTP/2 frame (stream id, flags, the decoded header list of HEADERS, the bytes of DATA with each
SSE event cut out per stream as it completes), as ../h2tls/describe_h2.py shows them. Frame numbers are Wireshark's
(1-based), times seconds since the first frame, both hops merged in frame order. A summary at the end lists every
HTTP request per hop with its status and the session ids each hop carried. Needs tshark (4.0.17 here).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import wirelib  # noqa: E402  (samples/gen/ecosystem/wirelib.py)
from wirelib import (Body, find_all, h1_segments, h2_data_len, h2_frames, h2_head, h2_headers,  # noqa: E402
                     tcp_words, tls_words, tshark_json, unhex)

CUT = 220
# The message-head fields worth a line: sessions, versions, resumption, content types, who answered, what a proxy
# adds, drops or rewrites.
HEADERS = ("content-type", "content-length", "transfer-encoding", "content-encoding", "mcp-session-id",
           "mcp-protocol-version", "last-event-id", "x-accel-buffering", "cache-control", "connection", "server", "via",
           "age", "x-forwarded-for", "x-forwarded-proto", "forwarded", "host", "accept", "accept-encoding", "date")


def h1_only(port_filter):
    """wirelib.tshark with h1_segments' display filter narrowed to PORT_FILTER (frame numbers stay the capture's)."""
    real = wirelib.tshark

    def run(args):
        args = list(args)
        i = args.index("-Y")
        args[i + 1] = port_filter
        return real(args)
    return run


def h1_lines(path, ports, hop, requests, sessions):
    real = wirelib.tshark
    wirelib.tshark = h1_only(" || ".join(f"tcp.port == {p}" for p in ports))
    try:
        yield from _h1_lines(path, ports, hop, requests, sessions)
    finally:
        wirelib.tshark = real


def _h1_lines(path, ports, hop, requests, sessions):
    for num, t, stream, to_server, port, what, notes in h1_segments(path, set(ports), HEADERS, CUT):
        arrow = "c->s" if to_server else "s->c"
        lines = [f"{num:>6} {t:8.3f} s{stream:<3} {arrow} :{port:<5} {hop[port]:<8} {what}"]
        for n in notes:
            lines.append(f"{'':40}{n}")
            if n.startswith("HEAD "):
                first = n[5:].split(" | ")[0]
                sid = re.search(r"mcp-session-id: ([^ |]+)", n, re.I)
                key = (hop[port], int(stream))
                if to_server:
                    requests.append([num, f"s{stream}", hop[port], first, sid.group(1) if sid else "-", None, key])
                else:
                    for r in requests:
                        if r[6] == key and r[5] is None:
                            r[5] = f"{first.split(' ', 2)[1]} @{num}"
                            break
                if sid:
                    sessions.setdefault(sid.group(1), set()).add(hop[port])
        yield num, lines


def h2_lines(path, mode, front, requests, sessions):
    if mode == "tls":
        keys = path.rsplit(".", 1)[0] + ".keys"
        opts = ["-o", f"tls.keylog_file:{keys}"]
    else:
        opts = ["-d", f"tcp.port=={front},http2"]
    bodies = {}                                              # (tcp stream, h2 stream) -> Body (SSE or JSON)
    for p in tshark_json(path, *opts, "-Y", f"tcp.port == {front}"):
        ly = p["_source"]["layers"]
        num = int(ly["frame"]["frame.number"])
        t = float(ly["frame"]["frame.time_relative"])
        tcp = ly.get("tcp", {})
        to_server = tcp.get("tcp.dstport") == str(front)
        stream = tcp.get("tcp.stream")
        what = tcp_words(tcp) + tls_words(ly.get("tls"))
        h2 = ly.get("http2")
        if find_all(h2, "http2.magic"):
            what.append("h2 preface (client magic)")
        notes = []
        for st in h2_frames(h2):
            typ, sid, flags, s = h2_head(st)
            key = (stream, sid)
            sub = []
            if typ in (1, 9):
                hdr = h2_headers(st)
                s += " {" + "; ".join(f"{k}: {v}" for k, v in hdr) + "}"
                d = {k: v for k, v in hdr}
                if ":status" in d or ":method" in d:
                    bodies[key] = Body(d.get("content-encoding", ""), "text/event-stream" in d.get("content-type", ""),
                                       CUT) if ":status" in d else Body("", False, CUT)
                if ":method" in d:
                    requests.append([num, f"s{stream}/{sid}", "front", f"{d[':method']} {d.get(':path', '')} HTTP/2",
                                     d.get("mcp-session-id", "-"), None, ("front", stream, sid)])
                elif ":status" in d:
                    for r in requests:
                        if r[6] == ("front", stream, sid) and r[5] is None:
                            r[5] = f"{d[':status']} @{num}"
                            break
                if "mcp-session-id" in d:
                    sessions.setdefault(d["mcp-session-id"], set()).add("front")
            elif typ == 0:
                n = h2_data_len(st)
                raw = unhex(st.get("http2.data.data", ""))[-n:] if n else b""
                s += f" len={n}"
                body = bodies.setdefault(key, Body("", False, CUT))
                if n:
                    body.feed(raw, sub)
                if flags & 1:
                    body.finish(sub)
            else:
                s += wirelib.h2_control(typ, st)
            notes += [s] + ["  " + x for x in sub]
        tls = ly.get("tls")
        if tls and not h2 and find_all(tls, "tls.app_data") and not find_all(tls, "tls.handshake.type"):
            if not find_all(tls, "tls.app_data_proto"):
                what.append("TLS application data (not decrypted)")
        if not (what or notes):
            continue
        arrow = "c->s" if to_server else "s->c"
        lines = [f"{num:>6} {t:8.3f} s{stream:<3} {arrow} :{front:<5} {'front':<8} {' '.join(what)}"]
        lines += [f"{'':40}{n}" for n in notes]
        yield num, lines


def main() -> None:
    mode, front, back, path = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    hop = {front: "front", back: "backend"}
    proto = {"h1": "cleartext HTTP/1.1", "h2c": "cleartext HTTP/2 (h2c, prior knowledge)",
             "tls": f"HTTP/2 over TLS, decrypted with {os.path.basename(path).rsplit('.', 1)[0]}.keys"}[mode]
    print(f"# {path}: front :{front} (client <-> proxy) {proto}; backend :{back} (proxy <-> MCP server) cleartext "
          "HTTP/1.1; bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop      what")
    requests, sessions, out = [], {}, []
    if mode == "h1":
        out += list(h1_lines(path, [front, back], hop, requests, sessions))
    else:
        out += list(h1_lines(path, [back], hop, requests, sessions))
        out += list(h2_lines(path, mode, front, requests, sessions))
    for _, lines in sorted(out, key=lambda x: x[0]):
        print("\n".join(x.rstrip() for x in lines))
    print("\n# requests (frame of the request head, tcp stream[/h2 stream], hop, request line, session id sent, "
          "status @frame)")
    for num, stream, h, first, sid, status, _ in sorted(requests, key=lambda r: r[0]):
        print(f"{num:>6} {stream:<7} {h:<8} {first:<30} session={sid:<36} -> {status or 'no response'}")
    print("\n# session ids and the hops that carried them")
    for sid, hops in sessions.items():
        print(f"  {sid}: {', '.join(sorted(hops))}")


if __name__ == "__main__":
    main()

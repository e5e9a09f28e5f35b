"""Listing of a replicas capture (samples/gen/ecosystem/replicas.sh), from tshark:

    python wire.py FRONT-PORT REPLICA-PORT... CAPTURE.pcap     (FRONT-PORT "-": no proxy in front)

Every hop is cleartext HTTP/1.1 on loopback: client <-> load balancer (FRONT-PORT) and load balancer <-> each replica
(REPLICA-PORTs), or client <-> the server directly. One line per TCP segment with a payload or SYN/FIN/RST (pure ACKs
left out), numbered as Wireshark numbers frames (1-based), time in seconds since the first frame, the TCP stream (sN),
the direction, the server port and which hop it is (front, or replica A/B/...); under it, what the segment's bytes
complete once the HTTP/1.1 framing is undone as they arrive (../wirelib.py H1Direction: message heads with the
headers that matter here, chunk framing, each complete SSE event, each whole JSON body). A summary at the end lists
every HTTP request with its status, per connection and hop, and every Mcp-Session-Id with the hops that carried it.
Needs tshark (4.0.17 here).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import H1Direction, tshark  # noqa: E402  (samples/gen/ecosystem/wirelib.py)

CUT = 220
# The message-head fields worth a line here: sessions, versions, resumption, content types, who answered.
HEADERS = ("content-type", "content-length", "transfer-encoding", "mcp-session-id", "mcp-protocol-version",
           "last-event-id", "x-accel-buffering", "connection", "server")


def main() -> None:
    front, replicas, path = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    hop = {front: "front"} if front != "-" else {}
    for i, p in enumerate(replicas):
        hop[p] = "replica " + "ABCDEFGH"[i] if front != "-" else "server"
    out = tshark(["-r", path, "-T", "fields", "-E", "separator=\t", "-e", "frame.number", "-e", "frame.time_relative",
                  "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.flags.str",
                  "-e", "tcp.len", "-e", "tcp.payload", "-e", "tcp.seq", "-Y", "tcp"])
    names = ", ".join(f":{p} = {h}" for p, h in hop.items())
    print(f"# {path}: every hop cleartext HTTP/1.1 ({names}); bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop        what")
    conns, requests, sessions, seen = {}, [], {}, {}
    for line in out.splitlines():
        num, t, stream, sport, dport, flags, tlen, payload, seq = (line.split("\t") + [""] * 9)[:9]
        flags = flags.replace("\u00b7", "").strip()
        to_server = dport in hop
        port = dport if to_server else sport
        c = conns.setdefault(int(stream), {})
        d = c.setdefault(to_server, H1Direction(to_server, HEADERS, CUT))
        notes = []
        if payload:
            # A segment whose bytes this direction already had (a loopback capture can hold a spurious
            # retransmission, D-SACKed by the peer) is listed as such, not read again as new HTTP.
            data, start = bytes.fromhex(payload), int(seq)
            upto = seen.get((stream, to_server), start)          # relative seq of the next byte not seen yet
            if start + len(data) <= upto:
                notes.append(f"TCP retransmission: these {len(data)} bytes were seen before (seq {start}), "
                             "not parsed again")
            else:
                d.feed(data[max(0, upto - start):], notes)
                seen[(stream, to_server)] = start + len(data)
        if not (payload or any(x in flags for x in ("S", "F", "R"))):
            continue
        words = [w for w, f in (("SYN", "S"), ("ACK", "A"), ("FIN", "F"), ("RST", "R")) if f in flags]
        if "SYN" not in words:
            words = [w for w in words if w != "ACK"]
        arrow = "c->s" if to_server else "s->c"
        what = " ".join(words + ([f"len={tlen}"] if payload else []))
        print(f"{int(num):>6} {float(t):8.3f} s{stream:<3} {arrow} :{port:<5} {hop[port]:<10} {what}")
        for n in notes:
            print(f"{'':42}{n}")
            if n.startswith("HEAD "):
                first = n[5:].split(" | ")[0]
                sid = re.search(r"mcp-session-id: ([^ |]+)", n)
                if to_server:
                    requests.append([int(num), int(stream), hop[port], first, sid.group(1) if sid else "-", None])
                else:
                    for r in requests:
                        if r[1] == int(stream) and r[5] is None:
                            r[5] = f"{first.split(' ', 2)[1]} @{int(num)}"
                            break
                if sid:
                    sessions.setdefault(sid.group(1), set()).add(hop[port])
    print("\n# requests (frame of the request head, tcp stream, hop, request line, session id sent, status @frame)")
    for num, stream, h, first, sid, status in requests:
        print(f"{num:>6} s{stream:<3} {h:<10} {first:<24} session={sid:<36} -> {status or 'no response'}")
    print("\n# session ids and the hops that carried them")
    for sid, hops in sessions.items():
        print(f"  {sid}: {', '.join(sorted(hops))}")


if __name__ == "__main__":
    main()

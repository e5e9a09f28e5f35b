"""Listing of a replicas capture (samples/gen/ecosystem/replicas.sh), from tshark:

    python wire.py FRONT-PORT REPLICA-PORT... CAPTURE.pcap     (FRONT-PORT "-": no proxy in front)

Every hop is cleartext HTTP/1.1 on loopback: client <-> load balancer (FRONT-PORT) and load balancer <-> each replica
(REPLICA-PORTs), or client <-> the server directly. One line per TCP segment with a payload or SYN/FIN/RST (pure ACKs
left out), numbered as Wireshark numbers frames (1-based), time in seconds since the first frame, the TCP stream (sN),
the direction, the server port and which hop it is (front, or replica A/B/...); under it, what the segment's bytes
complete once the HTTP/1.1 framing is undone as they arrive (../wirelib.py h1_segments and H1Direction: message heads with the
headers that matter here, chunk framing, each complete SSE event, each whole JSON body). A summary at the end lists
every HTTP request with its status, per connection and hop, and every Mcp-Session-Id with the hops that carried it.
Needs tshark (4.0.17 here).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import h1_segments  # noqa: E402  (samples/gen/ecosystem/wirelib.py)

CUT = 220
# The message-head fields worth a line here: sessions, versions, resumption, content types, who answered.
HEADERS = ("content-type", "content-length", "transfer-encoding", "mcp-session-id", "mcp-protocol-version",
           "last-event-id", "x-accel-buffering", "connection", "server")


def main() -> None:
    front, replicas, path = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
    hop = {front: "front"} if front != "-" else {}
    for i, p in enumerate(replicas):
        hop[p] = "replica " + "ABCDEFGH"[i] if front != "-" else "server"
    names = ", ".join(f":{p} = {h}" for p, h in hop.items())
    print(f"# {path}: every hop cleartext HTTP/1.1 ({names}); bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop        what")
    requests, sessions = [], {}
    for num, t, stream, to_server, port, what, notes in h1_segments(path, hop, HEADERS, CUT):
        arrow = "c->s" if to_server else "s->c"
        print(f"{num:>6} {t:8.3f} s{stream:<3} {arrow} :{port:<5} {hop[port]:<10} {what}")
        for n in notes:
            print(f"{'':42}{n}")
            if n.startswith("HEAD "):
                first = n[5:].split(" | ")[0]
                sid = re.search(r"mcp-session-id: ([^ |]+)", n)
                if to_server:
                    requests.append([int(num), int(stream), hop[port], first, sid.group(1) if sid else "-", None])
                elif not first.split(" ", 2)[1].startswith("1"):  # an interim 1xx answers nothing yet
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

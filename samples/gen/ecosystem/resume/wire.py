"""Listing of a resume capture (samples/gen/ecosystem/resume.sh), from tshark:

    python wire.py RELAY-PORT SERVER-PORT CAPTURE.pcap

Both hops are cleartext HTTP/1.1 on loopback: client <-> relay (RELAY-PORT, the hop the client sees) and relay <->
server (SERVER-PORT). One line per TCP segment with a payload or SYN/FIN/RST (pure ACKs left out), numbered as
Wireshark numbers frames (1-based), time in seconds since the first frame, the TCP stream (sN), the direction, the
port and the hop; under it, what the segment's bytes complete once the HTTP/1.1 framing is undone as they arrive
(../wirelib.py h1_segments and H1Direction: message heads with the headers that matter here, among them Last-Event-ID, chunk
framing, each complete SSE event with its id, each whole JSON body). A summary at the end lists every HTTP request
with its Last-Event-ID and status, per connection and hop, and every SSE event id with the frames that carried it
per hop (an id carried twice on one hop is a repeat on that hop).
Needs tshark (4.0.17 here).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import h1_segments  # noqa: E402  (samples/gen/ecosystem/wirelib.py)

CUT = 220
HEADERS = ("content-type", "content-length", "transfer-encoding", "mcp-session-id", "mcp-protocol-version",
           "last-event-id", "x-accel-buffering", "connection")


def main() -> None:
    relay, server, path = sys.argv[1], sys.argv[2], sys.argv[3]
    hop = {relay: "relay", server: "server"}
    print(f"# {path}: cleartext HTTP/1.1, :{relay} = relay (client hop), :{server} = server (relay -> server hop); "
          "bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop     what")
    requests, ids = [], {}
    for num, t, stream, to_server, port, what, notes in h1_segments(path, hop, HEADERS, CUT):
        arrow = "c->s" if to_server else "s->c"
        print(f"{num:>6} {t:8.3f} s{stream:<3} {arrow} :{port:<5} {hop[port]:<7} {what}")
        for n in notes:
            print(f"{'':39}{n}")
            if n.startswith("HEAD "):
                first = n[5:].split(" | ")[0]
                lei = re.search(r"last-event-id: ([^ |]+)", n)
                if to_server:
                    requests.append([int(num), int(stream), hop[port], first, lei.group(1) if lei else "-", None])
                else:
                    for r in requests:
                        if r[1] == int(stream) and r[5] is None:
                            r[5] = f"{first.split(' ', 2)[1]} @{int(num)}"
                            break
            m = re.match(r"SSE event: (?:[^{]*\| )?id: ?([^ |]+)", n)
            if m and not to_server:
                ids.setdefault((hop[port], m.group(1)), []).append(int(num))
    print("\n# requests (frame of the request head, tcp stream, hop, request line, Last-Event-ID sent, status @frame)")
    for num, stream, h, first, lei, status in requests:
        print(f"{num:>6} s{stream:<3} {h:<7} {first:<24} last-event-id={lei:<50} -> {status or 'no response'}")
    print("\n# SSE event ids per hop (frames that carried each; two frames on one hop = the id repeated there)")
    for (h, i), frames in ids.items():
        print(f"  {h:<7} {i:<60} {';'.join(map(str, frames))}{'   <-- repeated' if len(frames) > 1 else ''}")


if __name__ == "__main__":
    main()

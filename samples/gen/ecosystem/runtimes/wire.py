"""Listing of a runtimes capture (samples/gen/ecosystem/runtimes.sh): ../proxies2/wire.py (imported from its path, not
copied; itself ../replicas/wire.py with the head fields a reverse proxy adds, drops or rewrites), with a few more head
fields: host, user-agent, keep-alive, x-forwarded-host, x-forwarded-proto, x-powered-by, allow. A last section lists every segment of the server side whose payload begins with `HTTP/1.`, as
raw text up to the blank line that ends a head, saying where that blank line is missing: Bun.serve sends the head of
a streamed Response in two parts (the Response's own headers at once, `Date`, the framing header and the blank line
only with the first body byte or the end of the body), and the HTTP/1.1 parser of the listing above shows such a head
only once it is complete.

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap    (a Node reverse proxy on FRONT-PORT in front of BACKEND-PORT)
    python wire.py - SERVER-PORT CAPTURE.pcap              (the client talks to the server directly)

One line per TCP segment with a payload or SYN/FIN/RST, Wireshark's 1-based frame numbers, time in seconds since the
first frame, what each segment's bytes complete once the HTTP/1.1 framing is undone as they arrive (message heads,
chunk framing, each SSE event, a `:` comment as an event of its own, each JSON body), then the request and session
summary. Needs tshark (4.0.17 here).
"""

import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("proxies2_wire", os.path.join(HERE, "..", "proxies2", "wire.py"))
p2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(p2)
p2.wire.HEADERS = p2.wire.HEADERS + ("host", "user-agent", "keep-alive", "x-forwarded-host", "x-forwarded-proto",
                                     "x-powered-by", "allow")



def raw_heads(ports, path):
    out = subprocess.run(["tshark", "-r", path, "-Y", "tcp.len > 0 && tcp.payload[0:7] == \"HTTP/1.\"", "-T", "fields",
                          "-e", "frame.number", "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.payload"],
                         check=False, capture_output=True, text=True).stdout
    print("\n# response heads as raw bytes (frame, tcp stream, server port): each header line; '<no blank line>' = the"
          " head is not complete in this segment")
    for line in out.splitlines():
        num, stream, port, hexdata = line.split("\t")
        if port not in ports:
            continue
        text = bytes.fromhex(hexdata.replace(":", "")).decode("latin-1")
        head, sep, _ = text.partition("\r\n\r\n")
        print(f"{num:>6} s{stream:<3} :{port:<5} " + " | ".join(head.rstrip("\r\n").split("\r\n")) + ("" if sep else " | <no blank line>"))


if __name__ == "__main__":
    p2.wire.main()
    raw_heads([p for p in sys.argv[1:-1] if p != "-"], sys.argv[-1])

"""Make a capture with missing bytes: remove ONE server->client TCP data segment from a real capture.

    python drop_segment.py SOURCE.pcap OUT.pcap --rpc-id N [--wire SOURCE-LISTING.txt]

Finds the single server->client frame whose TCP payload carries the JSON-RPC response with id N
(`"id":N` together with `"result"`), and writes OUT without that frame (`editcap SOURCE OUT FRAME`).
Nothing else changes: the following segments keep their sequence numbers, so the receiver's stream has
a hole exactly as long as the removed payload, and the client's ACKs acknowledge bytes that are not in
the file. Prints the removed frame number and its payload length; with --wire, writes describe.py's
listing of the SOURCE capture, headed by that note, so frame numbers can be checked.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("out")
    ap.add_argument("--rpc-id", type=int, required=True)
    ap.add_argument("--wire")
    a = ap.parse_args()

    fields = ["frame.number", "tcp.srcport", "tcp.stream", "tcp.seq", "tcp.len", "tcp.payload"]
    cmd = ["tshark", "-r", a.source, "-o", "tcp.desegment_tcp_streams:FALSE", "-Y", "tcp.len > 0", "-T", "fields",
           "-E", "separator=\t"] + [x for f in fields for x in ("-e", f)]
    rows = [ln.split("\t") for ln in subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()]
    hits = []
    needle = f'"id":{a.rpc_id},"result"'.encode()
    for frame, sport, stream, seq, length, payload in rows:
        data = bytes.fromhex(payload.replace(":", ""))
        if needle in data and not data.startswith(b"HTTP/1.1"):   # the body segment, not the status line
            hits.append((int(frame), int(sport), int(stream), int(seq), int(length)))
    if len(hits) != 1:
        sys.exit(f"expected exactly one body segment with {needle!r}, found {hits}")
    frame, sport, stream, seq, length = hits[0]
    subprocess.run(["editcap", a.source, a.out, str(frame)], check=True)
    note = (f"# removed from the source capture: frame {frame} (tcp.stream {stream}, server port {sport} -> client, "
            f"relative seq {seq}, {length} payload bytes: the JSON body of the response to JSON-RPC id {a.rpc_id})")
    print("   " + note.lstrip("# "))
    if a.wire:
        listing = subprocess.run([sys.executable, str(HERE / "describe.py"), a.source], check=True,
                                 capture_output=True, text=True).stdout
        listing = listing.replace(f"# {a.source}", f"# source capture of {Path(a.out).name} (not kept; listing by describe.py)", 1)
        Path(a.wire).write_text(note + "\n" + listing)


if __name__ == "__main__":
    main()

"""Listing of a compress capture, from tshark: python wire.py FILE.pcap

describe.py reads bodies as they are on the wire; these captures carry Content-Encoding, so this listing decodes
them. Two parts:

1. HTTP messages as tshark dissects them (`tshark -Y http`, tshark decompresses gzip/deflate/br bodies itself):
   frame, time, TCP stream, request line or status, the headers that matter here, and the decoded body (cut).
2. Frame by frame: every TCP segment with a payload or SYN/FIN/RST, and what its bytes deliver once the HTTP/1.1
   framing (Content-Length / chunked) and the Content-Encoding are undone as the bytes arrive (zlib / brotli
   streaming decoders): "+N B enc -> M B" per body piece, and each complete SSE event or JSON body the decoded bytes
   finish in that frame. This shows where an SSE event really lands when a compressor holds it back.
Frame numbers are 1-based, as Wireshark numbers them; times are seconds since the first frame.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import H1Direction, short, tshark  # noqa: E402  (samples/gen/ecosystem/wirelib.py)

CUT = 160
# The message-head fields worth a line here: what the compressors decide by and what they set.
HEADERS = ("content-type", "content-encoding", "content-length", "transfer-encoding", "cache-control",
           "x-accel-buffering", "mcp-session-id", "accept-encoding", "vary")


# --------------------------------------------------------------------------- part 1: tshark's HTTP view
FIELDS = ["frame.number", "frame.time_relative", "tcp.stream", "http.request.method", "http.request.uri",
          "http.response.code", "http.content_type", "http.content_encoding", "http.content_length_header",
          "http.transfer_encoding", "http.request_in", "http.accept_encoding", "http.cache_control",
          "http.response_for.uri", "http.file_data"]


def part1(path):
    out = tshark(["-r", path, "-Y", "http", "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a",
                  "-o", "http.decompress_body:TRUE", "-o", "http.dechunk_body:TRUE",
                  *sum((["-e", f] for f in FIELDS), [])])
    print("## 1. HTTP messages (tshark -Y http; bodies decoded by tshark)")
    for line in out.splitlines():
        v = dict(zip(FIELDS, line.split("\t") + [""] * len(FIELDS)))
        head = f"{v['frame.number']:>5} {float(v['frame.time_relative']):8.3f} s{v['tcp.stream']:<3}"
        if v["http.request.method"]:
            desc = f"{v['http.request.method']} {v['http.request.uri']}"
            if v["http.accept_encoding"]:
                desc += f"  accept-encoding: {v['http.accept_encoding']}"
        else:
            desc = f"resp {v['http.response.code']} (req {v['http.request_in']})"
            for k, name in (("http.content_type", "type"), ("http.content_encoding", "encoding"),
                            ("http.content_length_header", "length"), ("http.transfer_encoding", "transfer"),
                            ("http.cache_control", "cache-control")):
                if v[k]:
                    desc += f"  {name}: {v[k]}"
        print(f"{head} {desc}")
        body = v["http.file_data"]
        if body:
            print(f"{'':22}body: {short(body, 300)}")
    print()


# --------------------------------------------------------------------------- part 2: frame by frame
def part2(path):
    out = tshark(["-r", path, "-T", "fields", "-E", "separator=\t", "-e", "frame.number", "-e", "frame.time_relative",
                  "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.flags.str",
                  "-e", "tcp.len", "-e", "tcp.payload", "-Y", "tcp"])
    print("## 2. Frame by frame (payload decoded as it arrives: HTTP/1.1 framing, then Content-Encoding, then SSE)")
    conns = {}
    for line in out.splitlines():
        f = (line.split("\t") + [""] * 8)[:8]
        num, t, stream, sport, dport, flags, tlen, payload = f
        flags = flags.replace("\u00b7", "").strip()
        key = int(stream)
        if key not in conns:
            conns[key] = {"client": sport, "dirs": {}}
        c = conns[key]
        to_server = sport == c["client"]
        arrow = "c->s" if to_server else "s->c"
        d = c["dirs"].setdefault(to_server, H1Direction(to_server, HEADERS, CUT))
        notes = []
        if payload:
            d.feed(bytes.fromhex(payload), notes)
        interesting = payload or any(x in flags for x in ("S", "F", "R"))
        if not interesting:
            continue
        port = sport if to_server else dport
        print(f"{int(num):>5} {float(t):8.3f} s{stream:<3} {arrow} :{port:<6} [{flags}] len={tlen}")
        for n in notes:
            print(f"{'':22}{n}")


def main():
    path = sys.argv[1]
    print(f"# {path}: tshark listing (compress group)\n")
    part1(path)
    part2(path)


if __name__ == "__main__":
    main()

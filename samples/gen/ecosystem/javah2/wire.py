"""Listing of a javah2 capture (samples/gen/ecosystem/javah2.sh), from tshark:

    python wire.py LABEL=PORT[,LABEL=PORT...] [--prior PORT] CAPTURE.pcap

The proxies3 group's listing (../proxies3/wire.py, imported from its path, not copied), for a capture in which a
connection can switch from HTTP/1.1 to HTTP/2 by `Upgrade: h2c` (RFC 7540 section 3.2): every TCP connection is
listed as HTTP/1.1 (../wirelib.py h1_segments: one line per segment, the heads with the fields that matter, chunk
framing, SSE events, JSON bodies) up to and including the segment with its `101 Switching Protocols`; from there on
as HTTP/2 as tshark decodes it after the upgrade (its HTTP dissector hands the connection to HTTP/2 by itself): one
line per segment with the h2 preface and every frame (stream id, flags, the decoded header list of HEADERS, the bytes
of DATA with each SSE event cut out per stream as it completes). `--prior PORT`: the connections to PORT are
cleartext HTTP/2 with prior knowledge (tshark is told to decode PORT as HTTP/2). A 101 segment that also carries the
server's first HTTP/2 bytes (its SETTINGS after the 101 head) is listed twice, once per part. Frame numbers are
Wireshark's (1-based), times seconds since the first frame. A summary at the end lists every HTTP request (tcp
stream[/h2 stream], hop, request line, session id sent, status) and the session ids each hop carried. Needs tshark.
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import wirelib  # noqa: E402  (samples/gen/ecosystem/wirelib.py)

_spec = importlib.util.spec_from_file_location("proxies3_wire", os.path.join(os.path.dirname(HERE), "proxies3", "wire.py"))
p3 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(p3)


def upgrades(path):
    """{tcp stream: (frame number of its 101 response, server port)}."""
    out = wirelib.tshark(["-r", path, "-T", "fields", "-e", "tcp.stream", "-e", "frame.number", "-e", "tcp.srcport",
                          "-Y", "http.response.code == 101"])
    res = {}
    for line in out.splitlines():
        s, n, port = line.split("\t")
        res.setdefault(s, (int(n), port))
    return res


def main() -> None:
    args = sys.argv[1:]
    prior = None
    if "--prior" in args:
        i = args.index("--prior")
        prior = args[i + 1]
        del args[i:i + 2]
    spec, path = args
    hop = {}
    for item in spec.split(","):
        label, port = item.split("=")
        hop[port] = label
    ups = upgrades(path)
    print(f"# {path}: cleartext; ports {', '.join(f'{p} ({h})' for p, h in hop.items())}; "
          f"h2c upgrades (tcp stream @101 frame): {', '.join(f's{s} @{n}' for s, (n, _) in ups.items()) or 'none'}; "
          f"prior-knowledge h2c: {prior or 'none'}; bytes parsed as they arrive")
    print("# frame  time     tcp  dir  port   hop      what")
    requests, sessions, out = [], {}, []
    ports = " || ".join(f"tcp.port == {p}" for p in hop if p != prior)
    h1_filter = f"({ports})" if ports else "frame.number == 0"
    for s, (n, _) in ups.items():
        h1_filter += f" && !(tcp.stream == {s} && frame.number > {n})"
    real = wirelib.tshark
    wirelib.tshark = p3.h1_only(h1_filter)
    try:
        out += list(p3._h1_lines(path, list(hop), hop, requests, sessions))
    finally:
        wirelib.tshark = real
    h2_parts = []
    for s, (n, port) in ups.items():
        h2_parts.append(([], f"tcp.stream == {s} && frame.number >= {n}", port))
    if prior:
        h2_parts.append((["-d", f"tcp.port=={prior},http2"], f"tcp.port == {prior}", prior))
    real_json = p3.tshark_json
    for opts, flt, port in h2_parts:
        p3.tshark_json = lambda pth, *_a, o=opts, f=flt: real_json(pth, *o, "-Y", f)
        try:
            # h2_lines calls its hop "front": relabel its lines, requests and sessions with this port's hop
            label = hop.get(port, "?")
            n0 = len(requests)
            for num, lines in p3.h2_lines(path, "h2c", port, requests, sessions):
                lines[0] = lines[0].replace(f":{port:<5} {'front':<8}", f":{port:<5} {label:<8}")
                out.append((num, lines))
            for r in requests[n0:]:
                r[2] = label
        finally:
            p3.tshark_json = real_json
    for sid, hops in sessions.items():
        if "front" in hops and "front" not in hop.values():
            hops.discard("front")
            hops.update(hop[p] for p in ([prior] if prior else []) + [u[1] for u in ups.values()] if p in hop)
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

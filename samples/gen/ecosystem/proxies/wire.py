"""Listing of a proxies capture (samples/gen/ecosystem/proxies.sh), from tshark and the capture's key log:

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap     (the key log is CAPTURE.keys beside it)

What it shares with h2tls/describe_h2.py (TLS + HTTP/2 frames) and compress/wire.py (HTTP/1.1 framing and
Content-Encoding undone as the bytes arrive) is in ../wirelib.py. One line per interesting packet, numbered as
Wireshark numbers frames (1-based), time in seconds since the first frame, the TCP stream (sN) and direction:
- the client <-> proxy hop (FRONT-PORT, TLS, decrypted with the key log): TCP SYN/FIN/RST, the TLS handshake with
  the ALPN offered and chosen, alerts, every HTTP/2 frame (type, stream id, flags, decoded header list); DATA
  frames with their length and, once the response's Content-Encoding (gzip, deflate, br, zstd: tshark 4.0 does not
  decode zstd, so this does it in Python, with tshark's own body decompression off) is undone as the frames arrive,
  what this frame's bytes deliver: "+N B zstd -> M B", each complete SSE event or JSON body;
- the proxy <-> backend hop (BACKEND-PORT, cleartext HTTP/1.1): every segment with a payload or SYN/FIN/RST, with the
  message heads, chunk framing, codings and SSE events its bytes complete (as compress/wire.py);
- HTTP/1.1 inside TLS on the front hop (a client that did not get h2) is only flagged (none in these captures).
Pure ACKs are left out. Needs tshark (4.0.17 here) and the brotli/zstandard modules (proxies/.venv).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wirelib import (Body, Decoder, H1Direction, find_all, h2_control, h2_data_len, h2_frames,  # noqa: E402
                     h2_head, h2_headers, short, tcp_words, tls_words, tshark_json, unhex)

CUT = 200
# The message-head fields worth a line on the backend hop: codings, and what a proxy adds or rewrites.
HEADERS = ("content-type", "content-encoding", "content-length", "transfer-encoding", "cache-control",
           "x-accel-buffering", "mcp-session-id", "accept-encoding", "accept", "connection", "via", "server")


def h2_frame(st, tcp_stream, from_server, bodies, notes):
    typ, sid, flags, s = h2_head(st)
    key = (tcp_stream, sid, from_server)
    if typ in (1, 9):
        hs = h2_headers(st)
        s += " {" + "; ".join(f"{k}: {v}" for k, v in hs) + "}"
        d = dict(hs)
        if ":status" in d or ":method" in d:
            bodies[key] = Body(d.get("content-encoding", ""), "text/event-stream" in d.get("content-type", ""), CUT)
    elif typ == 0:
        n = h2_data_len(st)
        # tshark hangs a multi-frame body, reassembled and still encoded, on the stream's last DATA frame (and its
        # own decoded copy under another key): keep this frame's own bytes, the tail of the encoded body.
        frags = st.get("http2.body.fragments", {})
        raw = unhex(frags.get("http2.body.reassembled.data", "") or st.get("http2.data.data", ""))
        raw = raw[-n:] if n > 0 else b""
        # A whole encoded body in one frame: tshark (gzip/deflate/br) shows only its decoded copy.
        decoded = [v for k, v in st.items() if k.startswith("Content-encoded entity body")]
        s += f" len={n}"
        b = bodies.get(key)
        if b is not None and not raw and decoded and n > 0:
            out = unhex(find_all(decoded, "http2.data.data")[0])
            notes.append(f"+{n} B {b.decoder.enc}, the whole body (decoded by tshark) -> {len(out)} B decoded")
            b.decoder = Decoder("")
            b.feed(out, notes)
        if b is not None:
            if raw:
                b.feed(raw, notes)
            if flags & 0x1:
                b.finish(notes)
        elif raw:
            notes.append("data: " + short(raw.decode("utf-8", "replace"), CUT))
    else:
        s += h2_control(typ, st)
    return s


def main() -> None:
    front, back, pcap = sys.argv[1], sys.argv[2], sys.argv[3]
    keys = pcap.rsplit(".", 1)[0] + ".keys"
    # tshark's own body decompression off: it would hide the encoded bytes this listing decodes itself.
    packets = tshark_json(pcap, "-o", f"tls.keylog_file:{keys}", "-o", "http.decompress_body:FALSE")
    print(f"# {pcap}: client<->proxy hop on port {front} (TLS decrypted with {keys}: handshake, HTTP/2 frames, bodies"
          " decoded as they arrive); proxy<->backend hop (HTTP/1.1, bytes parsed as they arrive)")
    print("# frame  time     tcp  dir  port   what")
    bodies, h1 = {}, {}
    for p in packets:
        l = p["_source"]["layers"]
        num = int(l["frame"]["frame.number"])
        t = float(l["frame"]["frame.time_relative"])
        tcp = l.get("tcp", {})
        sport, dport = tcp.get("tcp.srcport"), tcp.get("tcp.dstport")
        ts = tcp.get("tcp.stream")
        from_server = sport in (front, back)
        port = sport if from_server else dport
        arrow = "s->c" if from_server else "c->s"
        what, notes = tcp_words(tcp), []
        if port == front:
            what += tls_words(l.get("tls"))
            h2 = l.get("http2")
            if find_all(h2, "http2.magic"):
                what.append("h2 preface (client magic)")
            for st in h2_frames(h2):
                what.append(h2_frame(st, ts, from_server, bodies, notes))
            if not h2 and "http" in l:
                what.append("HTTP/1.1 in TLS (see tshark -Y http)")
        else:
            payload = unhex(tcp.get("tcp.payload", ""))
            if payload:
                d = h1.setdefault((ts, from_server), H1Direction(not from_server, HEADERS, CUT))
                d.feed(payload, notes)
                what.append(f"len={len(payload)}")
        if not what and not notes:
            continue
        lines = what + ["  " + n for n in notes]
        print(f"{num:>6} {t:9.3f} s{ts:<3} {arrow} :{port:<5}  " + "\n                                  ".join(lines))


if __name__ == "__main__":
    main()

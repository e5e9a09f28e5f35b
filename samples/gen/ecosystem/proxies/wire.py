"""Listing of a proxies capture (samples/gen/ecosystem/proxies.sh), from tshark and the capture's key log:

    python wire.py FRONT-PORT BACKEND-PORT CAPTURE.pcap     (the key log is CAPTURE.keys beside it)

Adapted from h2tls/describe_h2.py (TLS + HTTP/2 frames) and compress/wire.py (HTTP/1.1 framing and
Content-Encoding undone as the bytes arrive). One line per interesting packet, numbered as Wireshark numbers frames
(1-based), time in seconds since the first frame, the TCP stream (sN) and direction:
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

import json
import subprocess
import sys
import zlib

try:
    import brotli
except ImportError:  # pragma: no cover
    brotli = None
try:
    import zstandard
except ImportError:  # pragma: no cover
    zstandard = None

CUT = 200
H2_TYPES = {0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 5: "PUSH_PROMISE", 6: "PING",
            7: "GOAWAY", 8: "WINDOW_UPDATE", 9: "CONTINUATION"}
HS_TYPES = {1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 8: "EncryptedExtensions", 11: "Certificate",
            12: "ServerKeyExchange", 14: "ServerHelloDone", 15: "CertificateVerify", 16: "ClientKeyExchange",
            20: "Finished"}


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def find_all(obj, key):
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                out.extend(as_list(v))
            else:
                out.extend(find_all(v, key))
    elif isinstance(obj, list):
        for v in obj:
            out.extend(find_all(v, key))
    return out


def short(s, n=CUT):
    s = s.replace("\r", "\\r").replace("\n", "\\n")
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def unhex(h):
    return bytes.fromhex(h.replace(":", "")) if h else b""


class Decoder:
    def __init__(self, enc):
        self.enc = (enc or "").lower().strip()
        self.d = None
        if self.enc == "gzip":
            self.d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.enc == "deflate":
            self.d = zlib.decompressobj()
        elif self.enc == "br" and brotli:
            self.d = brotli.Decompressor()
        elif self.enc == "zstd" and zstandard:
            self.d = zstandard.ZstdDecompressor().decompressobj()
        elif self.enc not in ("", "identity"):
            self.enc = "unsupported:" + self.enc

    def feed(self, data):
        if self.enc in ("", "identity"):
            return data
        if self.d is None:
            return b""
        if self.enc == "br":
            return self.d.process(data)
        return self.d.decompress(data)


class Body:
    """A message body: decoded as it arrives, SSE events cut out as they complete."""

    def __init__(self, enc, sse):
        self.decoder = Decoder(enc)
        self.sse = sse
        self.text = b""

    def feed(self, raw, notes):
        try:
            out = self.decoder.feed(raw)
        except Exception as e:  # noqa: BLE001
            notes.append(f"+{len(raw)} B {self.decoder.enc}: DECODE ERROR {e}")
            return
        if self.decoder.enc not in ("", "identity"):
            notes.append(f"+{len(raw)} B {self.decoder.enc} -> {len(out)} B decoded")
        self.text += out
        if self.sse:
            while True:
                t = self.text.replace(b"\r\n", b"\n")
                i = t.find(b"\n\n")
                if i < 0:
                    self.text = t
                    break
                ev, self.text = t[:i].decode("utf-8", "replace"), t[i + 2:]
                notes.append("SSE event: " + short(ev.replace("\n", " | ")))

    def finish(self, notes):
        if not self.sse and self.text:
            notes.append("body: " + short(self.text.decode("utf-8", "replace")))
        elif self.sse and self.text.strip():
            notes.append("SSE leftover (no blank line): " + short(self.text.decode("utf-8", "replace")))
        self.text = b""


class H1Direction:
    """One direction of one HTTP/1.1 connection, parsed as the bytes arrive (compress/wire.py)."""

    def __init__(self, is_request):
        self.is_request = is_request
        self.buf = b""
        self.state = "head"
        self.remaining = 0
        self.body = None

    def feed(self, data, notes):
        self.buf += data
        while True:
            if self.state == "head":
                i = self.buf.find(b"\r\n\r\n")
                if i < 0:
                    return
                head, self.buf = self.buf[:i].decode("latin-1"), self.buf[i + 4:]
                lines = head.split("\r\n")
                hdr = {}
                for ln in lines[1:]:
                    k, _, val = ln.partition(":")
                    hdr[k.strip().lower()] = val.strip()
                self.body = Body(hdr.get("content-encoding", ""), "text/event-stream" in hdr.get("content-type", ""))
                info = [lines[0]]
                for k in ("content-type", "content-encoding", "content-length", "transfer-encoding", "cache-control",
                          "x-accel-buffering", "mcp-session-id", "accept-encoding", "accept", "connection", "via",
                          "server"):
                    if k in hdr:
                        info.append(f"{k}: {hdr[k]}")
                notes.append("HEAD " + " | ".join(info))
                if "chunked" in hdr.get("transfer-encoding", "").lower():
                    self.state = "chunk-size"
                elif int(hdr.get("content-length", "0") or 0) > 0:
                    self.state, self.remaining = "body", int(hdr["content-length"])
                elif self.is_request or lines[0].split(" ")[1:2] in (["204"], ["304"]) or "content-length" in hdr:
                    notes.append("(no body)")
                else:
                    self.state, self.remaining = "body", 1 << 62  # until close
                continue
            if self.state == "chunk-size":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    return
                size = int(self.buf[:i].split(b";")[0], 16)
                self.buf = self.buf[i + 2:]
                self.state, self.remaining = ("trailer", 0) if size == 0 else ("chunk", size)
                continue
            if self.state == "trailer":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    return
                line, self.buf = self.buf[:i], self.buf[i + 2:]
                if not line:
                    notes.append("end of chunked body (0-chunk)")
                    self.body.finish(notes)
                    self.state = "head"
                continue
            if self.state in ("body", "chunk"):
                if not self.buf:
                    return
                take = self.buf[:self.remaining]
                self.buf = self.buf[len(take):]
                self.remaining -= len(take)
                self.body.feed(take, notes)
                if self.remaining == 0:
                    if self.state == "chunk":
                        self.state = "chunk-crlf"
                    else:
                        self.body.finish(notes)
                        self.state = "head"
                continue
            if self.state == "chunk-crlf":
                if len(self.buf) < 2:
                    return
                self.buf = self.buf[2:]
                self.state = "chunk-size"
                continue


def h2_frame(st, tcp_stream, from_server, bodies, notes):
    typ = int(st.get("http2.type", -1))
    name = H2_TYPES.get(typ, f"type{typ}")
    sid = st.get("http2.streamid", "?")
    flags = int(st.get("http2.flags", "0x0"), 16)
    fl = []
    if typ in (0, 1) and flags & 0x1:
        fl.append("END_STREAM")
    if typ == 1 and flags & 0x4:
        fl.append("END_HEADERS")
    if typ in (4, 6) and flags & 0x1:
        fl.append("ACK")
    s = f"{name}[{sid}]" + (" " + ",".join(fl) if fl else "")
    key = (tcp_stream, sid, from_server)
    if typ in (1, 9):
        hs = [(h.get("http2.header.name"), h.get("http2.header.value", "")) for h in as_list(st.get("http2.header"))]
        s += " {" + "; ".join(f"{k}: {v}" for k, v in hs) + "}"
        d = dict(hs)
        if ":status" in d or ":method" in d:
            bodies[key] = Body(d.get("content-encoding", ""), "text/event-stream" in d.get("content-type", ""))
    elif typ == 0:
        n = int(st.get("http2.length", "0")) - int(st.get("http2.pad_length", "0") or 0)
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
            notes.append("data: " + short(raw.decode("utf-8", "replace")))
    elif typ == 3:
        s += f" error={st.get('http2.rst_stream.error')}"
    elif typ == 7:
        s += f" last_stream={st.get('http2.goaway.last_stream_id')} error={st.get('http2.goaway.error')}"
    elif typ == 8:
        s += f" +{st.get('http2.window_update.window_size_increment')}"
    return s


def main() -> None:
    front, back, pcap = sys.argv[1], sys.argv[2], sys.argv[3]
    keys = pcap.rsplit(".", 1)[0] + ".keys"
    out = subprocess.run(["tshark", "-r", pcap, "-o", f"tls.keylog_file:{keys}", "-o", "http.decompress_body:FALSE",
                          "-T", "json", "--no-duplicate-keys"],
                         check=True, capture_output=True, text=True).stdout
    print(f"# {pcap}: client<->proxy hop on port {front} (TLS decrypted with {keys}: handshake, HTTP/2 frames, bodies"
          " decoded as they arrive); proxy<->backend hop (HTTP/1.1, bytes parsed as they arrive)")
    print("# frame  time     tcp  dir  port   what")
    bodies, h1 = {}, {}
    for p in json.loads(out):
        l = p["_source"]["layers"]
        num = int(l["frame"]["frame.number"])
        t = float(l["frame"]["frame.time_relative"])
        tcp = l.get("tcp", {})
        sport, dport = tcp.get("tcp.srcport"), tcp.get("tcp.dstport")
        ts = tcp.get("tcp.stream")
        from_server = sport in (front, back)
        port = sport if from_server else dport
        arrow = "s->c" if from_server else "c->s"
        bits = int(tcp.get("tcp.flags", "0x0"), 16)
        what, notes = [], []
        if bits & 0x2:
            what.append("SYN" + ("+ACK" if bits & 0x10 else ""))
        if bits & 0x1:
            what.append("FIN")
        if bits & 0x4:
            what.append("RST")
        if port == front:
            tls = l.get("tls")
            for ht in find_all(tls, "tls.handshake.type"):
                what.append("TLS " + HS_TYPES.get(int(ht), f"handshake{ht}"))
            alpn = find_all(tls, "tls.handshake.extensions_alpn_str")
            if alpn:
                what.append("ALPN " + ",".join(alpn))
            if any(str(c) == "21" for c in find_all(tls, "tls.record.content_type")):
                what.append("TLS Alert")
            h2 = l.get("http2")
            if find_all(h2, "http2.magic"):
                what.append("h2 preface (client magic)")
            for layer in as_list(h2):
                for st in as_list(layer.get("http2.stream")):
                    if "http2.type" in st:
                        what.append(h2_frame(st, ts, from_server, bodies, notes))
            if not h2 and "http" in l:
                what.append("HTTP/1.1 in TLS (see tshark -Y http)")
        else:
            payload = unhex(tcp.get("tcp.payload", ""))
            if payload:
                d = h1.setdefault((ts, from_server), H1Direction(not from_server))
                d.feed(payload, notes)
                what.append(f"len={len(payload)}")
        if not what and not notes:
            continue
        lines = what + ["  " + n for n in notes]
        print(f"{num:>6} {t:9.3f} s{ts:<3} {arrow} :{port:<5}  " + "\n                                  ".join(lines))


if __name__ == "__main__":
    main()

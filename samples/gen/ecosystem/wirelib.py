"""What the ecosystem groups' tshark listings share (h2tls/describe_h2.py, compress/wire.py, proxies/wire.py):
running tshark, reading its JSON, naming TCP flags, TLS handshake messages and HTTP/2 frames, and following an
HTTP/1.1 byte stream or an HTTP/2 body as it arrives (framing, then Content-Encoding, then SSE events).

Imported with the scripts' parent folder put on sys.path. brotli and zstandard are optional: describe_h2.py runs
under the system python3, which has neither and lists no bodies.
"""

import json
import subprocess
import zlib

try:
    import brotli
except ImportError:  # pragma: no cover
    brotli = None
try:
    import zstandard
except ImportError:  # pragma: no cover
    zstandard = None

H2_TYPES = {0: "DATA", 1: "HEADERS", 2: "PRIORITY", 3: "RST_STREAM", 4: "SETTINGS", 5: "PUSH_PROMISE", 6: "PING",
            7: "GOAWAY", 8: "WINDOW_UPDATE", 9: "CONTINUATION"}
HS_TYPES = {1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 8: "EncryptedExtensions", 11: "Certificate",
            12: "ServerKeyExchange", 13: "CertificateRequest", 14: "ServerHelloDone", 15: "CertificateVerify",
            16: "ClientKeyExchange", 20: "Finished"}


# --------------------------------------------------------------------------- tshark and its JSON
def tshark(args):
    return subprocess.run(["tshark", *args], check=True, capture_output=True, text=True).stdout


def tshark_json(pcap, *opts):
    """The packets of PCAP as tshark's JSON (each a dict under _source.layers)."""
    return json.loads(tshark(["-r", pcap, *opts, "-T", "json", "--no-duplicate-keys"]))


def as_list(x):
    if x is None:
        return []
    return x if isinstance(x, list) else [x]


def find_all(obj, key):
    """Every value of KEY anywhere in the nested tshark JSON object."""
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


def unhex(h):
    return bytes.fromhex(h.replace(":", "")) if h else b""


def escape(s):
    return s.replace("\r", "\\r").replace("\n", "\\n")


def short(s, n):
    s = escape(s)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


# --------------------------------------------------------------------------- per packet: TCP, TLS, HTTP/2 frames
def tcp_words(tcp):
    """SYN (+ACK), FIN, RST of a tshark JSON tcp layer."""
    bits = int(tcp.get("tcp.flags", "0x0"), 16)
    what = []
    if bits & 0x2:
        what.append("SYN" + ("+ACK" if bits & 0x10 else ""))
    if bits & 0x1:
        what.append("FIN")
    if bits & 0x4:
        what.append("RST")
    return what


def tls_words(tls):
    """Handshake messages, the ALPN list (offered or chosen) and alerts of a tshark JSON tls layer."""
    what = []
    for ht in find_all(tls, "tls.handshake.type"):
        what.append("TLS " + HS_TYPES.get(int(ht), f"handshake{ht}"))
    alpn = find_all(tls, "tls.handshake.extensions_alpn_str")
    if alpn:
        what.append("ALPN " + ",".join(alpn))
    if any(str(c) == "21" for c in find_all(tls, "tls.record.content_type")):
        what.append("TLS Alert")
    return what


def h2_frames(h2):
    """The HTTP/2 frames (http2.stream dicts that carry a type) of a tshark JSON http2 layer, or list of layers."""
    return [st for layer in as_list(h2) for st in as_list(layer.get("http2.stream")) if "http2.type" in st]


def h2_head(st):
    """(type, stream id, flags, "NAME[sid] FLAGS") of one HTTP/2 frame."""
    typ = int(st.get("http2.type", -1))
    sid = st.get("http2.streamid", "?")
    flags = int(st.get("http2.flags", "0x0"), 16)
    fl = []
    if typ in (0, 1) and flags & 0x1:
        fl.append("END_STREAM")
    if typ == 1 and flags & 0x4:
        fl.append("END_HEADERS")
    if typ in (4, 6) and flags & 0x1:
        fl.append("ACK")
    return typ, sid, flags, f"{H2_TYPES.get(typ, f'type{typ}')}[{sid}]" + (" " + ",".join(fl) if fl else "")


def h2_headers(st):
    """The decoded header list of a HEADERS or CONTINUATION frame, as (name, value) pairs."""
    return [(h.get("http2.header.name"), h.get("http2.header.value", "")) for h in as_list(st.get("http2.header"))]


def h2_data_len(st):
    return int(st.get("http2.length", "0")) - int(st.get("http2.pad_length", "0") or 0)


def h2_control(typ, st):
    """What RST_STREAM, GOAWAY and WINDOW_UPDATE carry ("" for other types)."""
    if typ == 3:
        return f" error={st.get('http2.rst_stream.error')}"
    if typ == 7:
        return f" last_stream={st.get('http2.goaway.last_stream_id')} error={st.get('http2.goaway.error')}"
    if typ == 8:
        return f" +{st.get('http2.window_update.window_size_increment')}"
    return ""


# --------------------------------------------------------------------------- bodies as they arrive
class Decoder:
    """A streaming decoder for one Content-Encoding: fed encoded bytes as they arrive, returns what they decode to."""

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
    """A message body: decoded as it arrives, SSE events cut out as they complete. Notes are cut to CUT characters."""

    def __init__(self, enc, sse, cut):
        self.decoder = Decoder(enc)
        self.sse = sse
        self.cut = cut
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
                notes.append("SSE event: " + short(ev.replace("\n", " | "), self.cut))

    def finish(self, notes):
        if not self.sse and self.text:
            notes.append("body: " + short(self.text.decode("utf-8", "replace"), self.cut))
        elif self.sse and self.text.strip():
            notes.append("SSE leftover (no blank line): " + short(self.text.decode("utf-8", "replace"), self.cut))
        self.text = b""


class H1Direction:
    """One direction of one HTTP/1.1 connection, parsed as the bytes arrive: each message head (with the HEADERS
    that are there), the chunk framing, and the body as Body decodes it."""

    def __init__(self, is_request, headers, cut):
        self.is_request = is_request
        self.headers = headers
        self.cut = cut
        self.buf = b""
        self.state = "head"
        self.remaining = 0
        self.body = None

    def feed(self, data, notes):
        if self.state == "broken":
            return
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
                self.body = Body(hdr.get("content-encoding", ""), "text/event-stream" in hdr.get("content-type", ""),
                                 self.cut)
                info = [lines[0]] + [f"{k}: {hdr[k]}" for k in self.headers if k in hdr]
                notes.append("HEAD " + " | ".join(info))
                if "chunked" in hdr.get("transfer-encoding", "").lower():
                    self.state = "chunk-size"
                elif int(hdr.get("content-length", "0") or 0) > 0:
                    self.state, self.remaining = "body", int(hdr["content-length"])
                # RFC 9112 §6.3: a 1xx (100 Continue before the final answer to curl's Expect), 204 or 304 has no
                # body, whatever its headers say.
                elif self.is_request or lines[0].split(" ")[1:2] in (["204"], ["304"]) or "content-length" in hdr \
                        or lines[0].split(" ")[1:2][0:1] and lines[0].split(" ")[1].startswith("1"):
                    notes.append("(no body)")
                else:
                    self.state, self.remaining = "body", 1 << 62  # until close
                continue
            if self.state == "chunk-size":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    return
                try:
                    size = int(self.buf[:i].split(b";")[0], 16)
                except ValueError:
                    # A damaged segment the receiver discarded (samples/ecosystem/checksums-fin-client.pcap): say so
                    # and stop reading this direction rather than guess where its framing resumes.
                    notes.append(f"malformed chunk size {bytes(self.buf[:i][:16])!r}: rest of this direction not parsed")
                    self.state, self.buf = "broken", b""
                    return
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


def h1_segments(path, server_ports, headers, cut):
    """The TCP segments of a cleartext HTTP/1.1 capture worth a listing line (a payload, or SYN/FIN/RST), in frame
    order, each as (frame, seconds, tcp stream, to_server, server port, "SYN ACK"/"FIN"/"len=N" words, notes): the
    notes are what its bytes complete in their direction's H1Direction (heads, chunk framing, SSE events, bodies).
    A segment whose bytes its direction already had (a loopback capture can hold a spurious retransmission,
    D-SACKed by the peer) gets a note saying so and is not read again as new HTTP."""
    out = tshark(["-r", path, "-T", "fields", "-E", "separator=\t", "-e", "frame.number", "-e", "frame.time_relative",
                  "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.flags.str",
                  "-e", "tcp.len", "-e", "tcp.payload", "-e", "tcp.seq", "-Y", "tcp"])
    conns, seen = {}, {}
    for line in out.splitlines():
        num, t, stream, sport, dport, flags, tlen, payload, seq = (line.split("\t") + [""] * 9)[:9]
        flags = flags.replace("\u00b7", "").strip()
        to_server = dport in server_ports
        d = conns.setdefault((stream, to_server), H1Direction(to_server, headers, cut))
        notes = []
        if payload:
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
        what = " ".join(words + ([f"len={tlen}"] if payload else []))
        yield int(num), float(t), stream, to_server, dport if to_server else sport, what, notes

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

CUT = 160


def tshark(args):
    return subprocess.run(["tshark", *args], check=True, capture_output=True, text=True).stdout


def short(s, n=CUT):
    s = s.replace("\r", "\\r").replace("\n", "\\n")
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


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
class Decoder:
    def __init__(self, enc):
        self.enc = enc.lower().strip()
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


class Direction:
    """One direction of one TCP connection: HTTP/1.1 messages parsed as the bytes arrive."""

    def __init__(self, is_request):
        self.is_request = is_request
        self.buf = b""
        self.state = "head"
        self.remaining = 0
        self.chunked = False
        self.decoder = None
        self.sse = False
        self.text = b""
        self.events = 0

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
                enc = hdr.get("content-encoding", "")
                ctype = hdr.get("content-type", "")
                self.sse = "text/event-stream" in ctype
                self.decoder = Decoder(enc)
                self.text = b""
                self.events = 0
                info = [lines[0]]
                for k in ("content-type", "content-encoding", "content-length", "transfer-encoding",
                          "cache-control", "x-accel-buffering", "mcp-session-id", "accept-encoding", "vary"):
                    if k in hdr:
                        info.append(f"{k}: {hdr[k]}")
                notes.append("HEAD " + " | ".join(info))
                self.chunked = "chunked" in hdr.get("transfer-encoding", "").lower()
                if self.chunked:
                    self.state = "chunk-size"
                elif int(hdr.get("content-length", "0") or 0) > 0:
                    self.state, self.remaining = "body", int(hdr["content-length"])
                elif self.is_request or lines[0].split(" ")[1:2] in (["204"], ["304"]) or "content-length" in hdr:
                    notes.append("(no body)")
                    self.state = "head"
                else:
                    self.state, self.remaining = "body", 1 << 62  # until close
                continue
            if self.state == "chunk-size":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    return
                size = int(self.buf[:i].split(b";")[0], 16)
                self.buf = self.buf[i + 2:]
                if size == 0:
                    self.state = "trailer"
                else:
                    self.state, self.remaining = "chunk", size
                continue
            if self.state == "trailer":
                i = self.buf.find(b"\r\n")
                if i < 0:
                    return
                line, self.buf = self.buf[:i], self.buf[i + 2:]
                if not line:
                    notes.append("end of chunked body (0-chunk)")
                    self.finish(notes)
                    self.state = "head"
                continue
            if self.state in ("body", "chunk"):
                if not self.buf:
                    return
                take = self.buf[:self.remaining]
                self.buf = self.buf[len(take):]
                self.remaining -= len(take)
                self.body(take, notes)
                if self.remaining == 0:
                    if self.state == "chunk":
                        self.state = "chunk-crlf"
                    else:
                        self.finish(notes)
                        self.state = "head"
                continue
            if self.state == "chunk-crlf":
                if len(self.buf) < 2:
                    return
                self.buf = self.buf[2:]
                self.state = "chunk-size"
                continue

    def body(self, raw, notes):
        try:
            out = self.decoder.feed(raw)
        except Exception as e:  # noqa: BLE001
            notes.append(f"+{len(raw)} B {self.decoder.enc}: DECODE ERROR {e}")
            return
        enc = self.decoder.enc or "identity"
        if enc != "identity":
            notes.append(f"+{len(raw)} B {enc} -> {len(out)} B decoded")
        self.text += out
        if self.sse:
            while True:
                t = self.text.replace(b"\r\n", b"\n")
                i = t.find(b"\n\n")
                if i < 0:
                    self.text = t
                    break
                ev, self.text = t[:i].decode("utf-8", "replace"), t[i + 2:]
                self.events += 1
                notes.append("SSE event: " + short(ev.replace("\n", " | ")))

    def finish(self, notes):
        if not self.sse and self.text:
            notes.append("body: " + short(self.text.decode("utf-8", "replace")))
        elif self.sse and self.text.strip():
            notes.append("SSE leftover (no blank line): " + short(self.text.decode("utf-8", "replace")))
        self.text = b""


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
        d = c["dirs"].setdefault(to_server, Direction(to_server))
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

#!/usr/bin/env python3
# Vendored from the project's shared benchmark kit (shared/bench/gen_mcp_pcap.py) so that bench/run.sh works
# from a clean clone. Regenerate captures with bench/run.sh, not by hand. One change, to the ground truth only
# (the capture is byte for byte the shared generator's): two columns at the end of each session row,
# sse_single counts its SSE replies carrying only their response, sse_streaming those carrying progress
# notifications before it that came before the first single-message one. The incident catalogue's revised vocabulary makes the difference: a
# per-request streaming reply after JSON is MCP-SSE-SHIFT, not MCP-SSE-DOWNGRADE (bench/check.py).
"""Deterministic synthetic MCP (Model Context Protocol) Streamable-HTTP traffic -> classic pcap.

Pure standard library. Writes LINKTYPE_ETHERNET pcap (microsecond timestamps) of many
interleaved MCP sessions, as seen by a passive capture point next to the servers:

  * TCP: 3-way handshake (MSS/SACK_PERM/TS/WS options), correct seq/ack, TCP timestamps on
    every segment, delayed ACKs (one ACK per two data segments), FIN teardown, keep-alive
    connections carrying several request/response pairs; some sessions open a new connection
    per request (Connection: close, server closes), some reconnect every few requests.
    Payload segmented at MSS 1448. ~10% of sessions run over IPv6. IPv4 and TCP checksums
    are correct.
  * HTTP/1.1: POST /mcp with JSON-RPC bodies (initialize, notifications/initialized,
    tools/list, tools/call with argument sizes 100 B..20 KB log-uniform), optional final
    DELETE /mcp. Headers Host, Content-Type, Accept: application/json, text/event-stream,
    Mcp-Session-Id (after initialize), MCP-Protocol-Version (after initialize).
    Responses: application/json with Content-Length, or text/event-stream with
    Transfer-Encoding: chunked carrying "event: message" / "id: N" / "data: {...}" frames
    (progress notifications before the result, big events split over several chunks).
    202 Accepted (Content-Length: 0) for the notification, 204 No Content for DELETE.
    The server sets Mcp-Session-Id in the initialize response.
  * Session styles: json (all bodies JSON), sse (all bodies SSE with id lines), mixed
    (JSON first, SSE with id lines later: NOT a downgrade), downgraded (JSON first, later SSE
    WITHOUT id lines: the "silent downgrade"; fraction --downgrade-fraction of sessions).
  * Noise (off with --clean): ~0.5% of data segments duplicated (retransmission) and ~0.5%
    swapped with the following same-direction segment (out of order). Noise uses its own
    random stream, so the clean and the noisy file of a seed carry identical sessions.

Ground truth goes to OUT.truth.csv (one row per session plus a TOTAL row).

Usage:
  gen_mcp_pcap.py --sessions 200 --calls-per-session 10 --seed 1 --out small.pcap
  gen_mcp_pcap.py --target-bytes 1073741824 --seed 1 --out big.pcap
With --target-bytes, --sessions is ignored: sessions keep arriving until the planned bytes
reach the target, then all open sessions run to completion (file is close to the target).
--calls-per-session is the MEAN number of tools/call per session (uniform in
[ceil(M/2), M + M//2]); --fixed-calls makes it exactly M.
"""
import argparse
import heapq
import math
import random
import struct
import sys
import time

MSS = 1448
BASE_EPOCH_US = 1750377600 * 1_000_000  # 2025-06-20T00:00:00Z
PROTO_VER = b"2025-06-18"

F_FIN, F_SYN, F_PSH, F_ACK = 0x01, 0x02, 0x08, 0x10
C2S, S2C = 0, 1

_rec = struct.Struct("<IIII").pack
_tcp = struct.Struct("!HHIIBBHHH").pack
_tsopt = struct.Struct("!BBBBII").pack
_ip4 = struct.Struct("!BBHHHBBH4s4s").pack
_ip6 = struct.Struct("!IHBB16s16s").pack
_frombytes = int.from_bytes

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def http_date(t):
    tm = time.gmtime(BASE_EPOCH_US // 1_000_000 + int(t))
    return ("%s, %02d %s %04d %02d:%02d:%02d GMT" % (
        DAYS[tm.tm_wday], tm.tm_mday, MONTHS[tm.tm_mon - 1], tm.tm_year,
        tm.tm_hour, tm.tm_min, tm.tm_sec)).encode()


def csum_fold(x):
    """Internet checksum from an integer congruent (mod 65535) to the word sum."""
    s = x % 65535
    return (0xFFFF - s) if s else 0


def sum16(b):
    """Sum of big-endian 16-bit words of b (zero padded) modulo 65535 (65536 == 1 mod 65535)."""
    v = _frombytes(b, "big")
    if len(b) & 1:
        v <<= 8
    return v % 65535


def loguniform(rng, a, b):
    return math.exp(rng.uniform(math.log(a), math.log(b)))


# ---------------------------------------------------------------------------------------
# Content templates (built once per run from the seed)
# ---------------------------------------------------------------------------------------
WORDS = ("the of and to in is that for it as with was on be by this are from at or an have "
         "not which but can file function return value data request server client tool result "
         "error config path line code test build module import class object string number list "
         "map time user session token stream event message json http header body chunk buffer "
         "socket thread process query index table row column cache key memory disk network packet "
         "frame status update create delete read write open close start stop run load save parse "
         "format encode decode async await struct impl fn let mut match Ok Err None Some self "
         "TODO FIXME README.md src/main.rs /usr/lib v1.2.3 0 1 42 2025 { } ( ) ; = + -> :: < > "
         "[ ] , . : # @ $ % & * ! ? ' ~ |").split() + ["\\n", "\\n", "\\n", "\\t", "\\u00e9"]

SERVER_NAMES = ["filesystem", "github", "postgres", "browser", "search", "memory", "slack", "jira"]
CLIENT_NAMES = [("claude-code", "2.0.14"), ("cursor", "1.7.2"), ("vscode-copilot", "1.104.0"),
                ("mcp-inspector", "0.16.8"), ("python-sdk-client", "1.14.1"), ("goose", "1.9.0"),
                ("windsurf", "1.12.3"), ("zed", "0.205.4")]
USER_AGENTS = [b"node", b"python-httpx/0.28.1", b"undici", b"axios/1.12.2",
               b"Go-http-client/1.1", b"claude-code/2.0.14", b"reqwest/0.12.23"]
SERVER_HDRS = [b"uvicorn", b"Express", b"nginx/1.27.3", b"hypercorn-h11", b"Kestrel"]


class Templates:
    def __init__(self, seed):
        rng = random.Random("%s:templates" % seed)
        self.corpus = " ".join(rng.choices(WORDS, k=450_000)).encode()
        self.corpus_len = len(self.corpus)
        self.servers = []
        for i, name in enumerate(SERVER_NAMES):
            ntools = rng.randint(4, 18)
            tools = []
            for k in range(ntools):
                tname = "%s_%s_%d" % (name, rng.choice(["read", "write", "list", "search", "get",
                                                        "create", "update", "query", "run"]), k)
                props = []
                req = []
                for p in range(rng.randint(1, 5)):
                    pname = rng.choice(["path", "query", "content", "limit", "repo", "owner",
                                        "sql", "url", "selector", "text", "id", "branch"]) + str(p)
                    ptype = rng.choice(["string", "string", "integer", "boolean"])
                    props.append(b'"%s":{"type":"%s","description":"%s"}' % (
                        pname.encode(), ptype.encode(), self.text(rng, rng.randint(20, 120))))
                    if rng.random() < 0.6:
                        req.append(b'"%s"' % pname.encode())
                tools.append(
                    b'{"name":"%s","title":"%s","description":"%s","inputSchema":{"type":"object",'
                    b'"properties":{%s},"required":[%s]},"annotations":{"readOnlyHint":%s}}' % (
                        tname.encode(), tname.replace("_", " ").encode(),
                        self.text(rng, rng.randint(60, 500)), b",".join(props), b",".join(req),
                        rng.choice([b"true", b"false"])))
            self.servers.append({
                "name": name.encode(),
                "tools": [t.split(b'"', 4)[3] for t in tools],
                "tools_json": b",".join(tools),
                "hdr": rng.choice(SERVER_HDRS),
                "version": ("%d.%d.%d" % (rng.randint(0, 3), rng.randint(0, 20),
                                          rng.randint(0, 9))).encode(),
                "instructions": self.text(rng, rng.randint(50, 400)),
                "port": rng.choice([80, 8080]),
                "v4": bytes([203, 0, 113, 10 + i]),
                "v6": bytes.fromhex("20010db8000000000000000000000010") [:15] + bytes([0x10 + i]),
                "sse_hdr_flush": rng.random() < 0.5,   # headers in their own write
                "chunk_max": rng.choice([1024, 4096, 8192, 16384, 1 << 30]),
                "sep_last_chunk": rng.random() < 0.5,  # terminating 0-chunk in its own write
            })

    def text(self, rng, n):
        """JSON-string-safe text of n bytes cut from the corpus."""
        if n <= 0:
            return b""
        p = rng.randrange(0, self.corpus_len - n - 1)
        s = self.corpus[p:p + n]
        # never end inside an escape sequence (a cut-off \\uXXXX or a lone backslash)
        bs = s.rfind(b"\\u")
        if bs != -1 and bs > len(s) - 6:
            s = s[:bs] + b" " * (len(s) - bs)
        if s.endswith(b"\\"):
            s = s[:-1] + b" "
        return s


# ---------------------------------------------------------------------------------------
# TCP connection: builds frames with correct headers, checksums, seq/ack
# ---------------------------------------------------------------------------------------
class Conn:
    __slots__ = ("eth", "v6", "src", "dst", "ports", "seq", "ipid", "ttl", "pseudo", "ip4c",
                 "tsoff", "rtt", "win", "out", "flow", "nreq", "srcdst")

    def __init__(self, sess, cport, rng):
        self.v6 = sess.v6
        self.rtt = sess.rtt
        self.ports = ((cport, sess.sport), (sess.sport, cport))
        if self.v6:
            c, s = sess.cip6, sess.server["v6"]
            et = b"\x86\xdd"
        else:
            c, s = sess.cip4, sess.server["v4"]
            et = b"\x08\x00"
        self.srcdst = ((c, s), (s, c))
        self.eth = (sess.smac + sess.cmac + et, sess.cmac + sess.smac + et)
        self.seq = [rng.getrandbits(32), rng.getrandbits(32)]
        self.ipid = [rng.getrandbits(16), rng.getrandbits(16)]
        self.ttl = (sess.cttl, 64)
        self.tsoff = (rng.getrandbits(31), rng.getrandbits(31))
        self.win = (rng.choice([1024, 2048, 3072]), rng.choice([1024, 2048, 4096]))
        self.flow = (rng.getrandbits(20), rng.getrandbits(20))
        base = _frombytes(c + s, "big") % 65535 + 6
        self.pseudo = (base, base)
        if not self.v6:
            self.ip4c = tuple(0x4500 + 0x4000 + ((self.ttl[d] << 8) | 6) +
                              _frombytes(c + s, "big") % 65535 for d in (0, 1))
        self.out = None
        self.nreq = 0

    def frame(self, d, ts, flags, seq, ack, payload=b"", psum=0, opts=None):
        sport, dport = self.ports[d]
        if opts is None:
            tsval = (int(ts * 1000) + self.tsoff[d]) & 0xFFFFFFFF
            tsecr = (int((ts - self.rtt * 0.5) * 1000) + self.tsoff[1 - d]) & 0xFFFFFFFF
            opts = _tsopt(1, 1, 8, 10, tsval, tsecr)
        hlen = 20 + len(opts)
        tcplen = hlen + len(payload)
        # SYN / SYN-ACK carry an unscaled window (Linux: 64240 / 65160); later ones are scaled by 128
        win = self.win[d] if opts is None else (64240, 65160)[d]
        h0 = _tcp(sport, dport, seq, ack, hlen << 2, flags, win, 0, 0) + opts
        cs = csum_fold(self.pseudo[d] + tcplen + _frombytes(h0, "big") % 65535 + psum)
        tcph = _tcp(sport, dport, seq, ack, hlen << 2, flags, win, cs, 0) + opts
        src, dst = self.srcdst[d]
        if self.v6:
            iph = _ip6(0x60000000 | self.flow[d], tcplen, 6, self.ttl[d], src, dst)
        else:
            tot = 20 + tcplen
            ipid = self.ipid[d]
            self.ipid[d] = (ipid + 1) & 0xFFFF
            ics = csum_fold(self.ip4c[d] + tot + ipid)
            iph = _ip4(0x45, 0, tot, ipid, 0x4000, self.ttl[d], 6, ics, src, dst)
        if payload:
            return b"".join((self.eth[d], iph, tcph, payload))
        return b"".join((self.eth[d], iph, tcph))

    # -- building blocks; every emitted packet is appended to self.out as [ts, dir, plen, frame]
    def emit(self, d, ts, flags, seq, ack, payload=b"", opts=None):
        psum = sum16(payload) if payload else 0
        self.out.append([ts, d, len(payload), self.frame(d, ts, flags, seq, ack, payload, psum,
                                                         opts)])

    def handshake(self, t):
        rtt = self.rtt
        cisn, sisn = self.seq
        wsc, wss = 7, 7
        tsv = (int(t * 1000) + self.tsoff[0]) & 0xFFFFFFFF
        o_c = b"\x02\x04\x05\xb4\x04\x02" + struct.pack("!BBII", 8, 10, tsv, 0) + b"\x01\x03\x03" + bytes([wsc])
        tss = (int(t * 1000) + self.tsoff[1]) & 0xFFFFFFFF
        o_s = b"\x02\x04\x05\xb4\x04\x02" + struct.pack("!BBII", 8, 10, tss, tsv) + b"\x01\x03\x03" + bytes([wss])
        self.emit(C2S, t, F_SYN, cisn, 0, opts=o_c)
        self.emit(S2C, t + 0.00004, F_SYN | F_ACK, sisn, (cisn + 1) & 0xFFFFFFFF, opts=o_s)
        self.seq = [(cisn + 1) & 0xFFFFFFFF, (sisn + 1) & 0xFFFFFFFF]
        self.emit(C2S, t + rtt, F_ACK, self.seq[0], self.seq[1])
        return t + rtt

    def send(self, d, t, data, gap, acks):
        """Segment `data` from direction d starting at t (segments `gap` apart). The peer ACKs
        every second segment (`acks` = delay of those ACKs as seen at the capture point).
        Returns (time of last segment, list of unacked end seqs)."""
        o = 1 - d
        seq = self.seq[d]
        ack = self.seq[o]
        n = len(data)
        pos = 0
        k = 0
        mv = memoryview(data)
        last_t = t
        pending = None
        while pos < n:
            ln = n - pos if n - pos <= MSS else MSS
            seg = mv[pos:pos + ln]
            pos += ln
            ts = t + k * gap
            flags = F_ACK | F_PSH if pos == n else F_ACK
            self.emit(d, ts, flags, seq, ack, bytes(seg))
            seq = (seq + ln) & 0xFFFFFFFF
            last_t = ts
            k += 1
            if k % 2 == 0:
                self.emit(o, ts + acks, F_ACK, ack, seq)
                pending = None
            else:
                pending = seq
        self.seq[d] = seq
        return last_t, pending

    def close(self, t, initiator):
        """FIN handshake starting at t by `initiator` (C2S or S2C)."""
        i, o = initiator, 1 - initiator
        rtt = self.rtt
        d_fin = 0.00003 if o == S2C else rtt  # delay until the other side's FIN shows up
        self.emit(i, t, F_FIN | F_ACK, self.seq[i], self.seq[o])
        self.seq[i] = (self.seq[i] + 1) & 0xFFFFFFFF
        t2 = t + d_fin
        self.emit(o, t2, F_FIN | F_ACK, self.seq[o], self.seq[i])
        self.seq[o] = (self.seq[o] + 1) & 0xFFFFFFFF
        t3 = t2 + (rtt if i == C2S else 0.00003)
        self.emit(i, t3, F_ACK, self.seq[i], self.seq[o])
        return t3


# ---------------------------------------------------------------------------------------
# MCP session
# ---------------------------------------------------------------------------------------
class Session:
    def __init__(self, g, idx, t0):
        self.g = g
        self.idx = idx
        self.t0 = t0
        rng = self.rng = random.Random("%s:s:%d" % (g.seed, idx))
        self.nrng = random.Random("%s:n:%d" % (g.seed, idx))
        T = g.tpl
        self.sid_hdr = ("%08x-%04x-4%03x-%04x-%012x" % (
            rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
            0x8000 | rng.getrandbits(14), rng.getrandbits(48))).encode()
        self.server = T.servers[rng.randrange(len(T.servers))]
        self.sport = self.server["port"]
        self.v6 = rng.random() < g.ipv6_fraction
        a = idx + 1
        self.cip4 = bytes([10, (a >> 16) & 255, (a >> 8) & 255, a & 255])
        self.cip6 = bytes.fromhex("fd000000000000000000000000000000")[:12] + a.to_bytes(4, "big")
        self.cmac = bytes([0x02, 0x42, 0xac]) + rng.getrandbits(24).to_bytes(3, "big")
        self.smac = bytes([0x00, 0x16, 0x3e, 0x5a, 0x01, 0x10 + T.servers.index(self.server)])
        self.cttl = rng.choice([64, 63, 61, 57, 52, 128, 127, 118])
        self.rtt = loguniform(rng, 0.0003, 0.08)
        self.tx_c = 1448 * 8 / loguniform(rng, 20e6, 1e9)  # client uplink, seconds per MSS
        self.tx_s = 1448 * 8 / 1e9
        r = rng.random()
        self.mode = "keepalive" if r < 0.70 else ("per_request" if r < 0.85 else "reconnect")
        self.split_headers = rng.random() < 0.3  # client writes headers and body separately
        cname, cver = rng.choice(CLIENT_NAMES)
        self.client = (cname.encode(), cver.encode())
        self.ua = rng.choice(USER_AGENTS)
        self.host = b"%s.mcp.example.com%s" % (self.server["name"], b"" if self.sport == 80 else b":8080")
        self.cport = rng.randint(32768, 60000)
        # style
        if rng.random() < g.downgrade_fraction:
            self.style = "downgraded"
        else:
            r = rng.random()
            self.style = "json" if r < 0.4 else ("sse" if r < 0.8 else "mixed")
        M = g.calls
        self.ncalls = M if g.fixed_calls else rng.randint((M + 1) // 2, M + M // 2)
        self.ncalls = max(self.ncalls, 1 if g.calls > 0 else 0)
        self.delete = rng.random() < 0.5
        # plan: kinds of requests in order
        plan = ["initialize", "initialized", "tools/list"] + ["call"] * self.ncalls
        if self.delete:
            plan.append("delete")
        self.plan = plan
        nbody = 2 + self.ncalls  # responses that carry a body
        # body response index from which SSE is used
        if self.style == "json":
            self.sse_from = nbody + 1
        elif self.style == "sse":
            self.sse_from = 0
        else:
            self.sse_from = rng.randint(2, nbody - 1) if nbody >= 3 else 1
        self.sse_ids = self.style != "downgraded"
        # pre-draw sizes (also used for the byte estimate)
        self.arg_sizes = [int(loguniform(rng, 100, 20000)) for _ in range(self.ncalls)]
        self.res_sizes = [int(loguniform(rng, 200, 65536)) for _ in range(self.ncalls)]
        tl = len(self.server["tools_json"])
        est_payload = 900 + 700 + 600 + tl + 700 + sum(self.arg_sizes) + sum(self.res_sizes) \
            + 650 * self.ncalls + (400 if self.delete else 0)
        npk = est_payload / 1100 + 3 * len(plan) + 8
        self.est_bytes = int(est_payload + npk * (16 + 14 + (40 if self.v6 else 20) + 32))
        # counters for the truth file
        self.n_req = 0
        self.n_resp = 0
        self.n_json = 0
        self.n_sse = 0
        self.n_sse_single = 0
        self.n_sse_streaming = 0
        self.n_nobody = 0
        self.n_events = 0
        self.n_events_id = 0
        self.n_conns = 0
        self.event_id = 0
        self.first_sse = -1
        self.gen = self.run()

    # -- HTTP message builders -----------------------------------------------------------
    def request(self, kind, rid, body, close):
        h = [b"%s /mcp HTTP/1.1" % (b"DELETE" if kind == "delete" else b"POST"),
             b"Host: " + self.host, b"User-Agent: " + self.ua]
        if kind != "delete":
            h.append(b"Content-Type: application/json")
            h.append(b"Accept: application/json, text/event-stream")
            h.append(b"Content-Length: %d" % len(body))
        if kind != "initialize":
            h.append(b"Mcp-Session-Id: " + self.sid_hdr)
            h.append(b"MCP-Protocol-Version: " + PROTO_VER)
        if close:
            h.append(b"Connection: close")
        return b"\r\n".join(h) + b"\r\n\r\n", body

    def body_for(self, kind, rid, ci):
        rng = self.rng
        T = self.g.tpl
        if kind == "initialize":
            return (b'{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":'
                    b'"%s","capabilities":{"roots":{"listChanged":true},"sampling":{},'
                    b'"elicitation":{}},"clientInfo":{"name":"%s","title":"%s","version":"%s"}}}' % (
                        rid, PROTO_VER, self.client[0], self.client[0].upper(), self.client[1]))
        if kind == "initialized":
            return b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
        if kind == "tools/list":
            return b'{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{}}' % rid
        if kind == "call":
            tool = rng.choice(self.server["tools"])
            head = (b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s",'
                    b'"arguments":{"path":"/home/user/project/src/%s.rs","content":"' % (
                        rid, tool, T.text(rng, rng.randint(4, 24)).replace(b" ", b"_")
                        .replace(b"\\", b"_").replace(b"/", b"_")))
            tail = b'"},"_meta":{"progressToken":"pt-%d-%d"}}}' % (self.idx, rid)
            n = self.arg_sizes[ci] - len(head) - len(tail)
            return head + T.text(rng, max(n, 8)) + tail
        return b""

    def result_for(self, kind, rid, ci):
        rng = self.rng
        T = self.g.tpl
        srv = self.server
        if kind == "initialize":
            return (b'{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":"%s","capabilities":'
                    b'{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},'
                    b'"prompts":{"listChanged":true},"logging":{}},"serverInfo":{"name":"%s-server",'
                    b'"version":"%s"},"instructions":"%s"}}' % (
                        rid, PROTO_VER, srv["name"], srv["version"], srv["instructions"]))
        if kind == "tools/list":
            return b'{"jsonrpc":"2.0","id":%d,"result":{"tools":[%s]}}' % (rid, srv["tools_json"])
        # tools/call
        err = rng.random() < 0.04
        head = b'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"' % rid
        tail = b'"}],"isError":%s}}' % (b"true" if err else b"false")
        n = self.res_sizes[ci] - len(head) - len(tail)
        return head + T.text(rng, max(n, 8)) + tail

    def sse_event(self, data):
        self.n_events += 1
        if self.sse_ids:
            self.event_id += 1
            self.n_events_id += 1
            return b"event: message\nid: %d\ndata: %s\n\n" % (self.event_id, data)
        return b"event: message\ndata: %s\n\n" % data

    def chunks(self, ev):
        cm = self.server["chunk_max"]
        if len(ev) <= cm:
            return b"%x\r\n%s\r\n" % (len(ev), ev)
        parts = []
        for p in range(0, len(ev), cm):
            piece = ev[p:p + cm]
            parts.append(b"%x\r\n%s\r\n" % (len(piece), piece))
        return b"".join(parts)

    def response_writes(self, kind, rid, ci, body_idx, t, proc, close):
        """List of (time, bytes) server writes for the response. Updates truth counters."""
        srv = self.server
        rng = self.rng
        common = [b"Date: " + http_date(t + proc), b"Server: " + srv["hdr"]]
        if close:
            common.append(b"Connection: close")
        elif rng.random() < 0.5:
            common.append(b"Connection: keep-alive")
        self.n_resp += 1
        if kind == "initialized":
            self.n_nobody += 1
            return [(t + proc, b"HTTP/1.1 202 Accepted\r\n" + b"\r\n".join(common) +
                     b"\r\nContent-Length: 0\r\n\r\n")]
        if kind == "delete":
            self.n_nobody += 1
            return [(t + proc, b"HTTP/1.1 204 No Content\r\n" + b"\r\n".join(common) + b"\r\n\r\n")]
        result = self.result_for(kind, rid, ci)
        if kind == "initialize":
            common.append(b"Mcp-Session-Id: " + self.sid_hdr)
        if body_idx < self.sse_from:
            self.n_json += 1
            hdr = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                   % len(result)) + b"\r\n".join(common) + b"\r\n\r\n"
            return [(t + proc, hdr + result)]
        # text/event-stream, chunked
        self.n_sse += 1
        if self.first_sse < 0:
            self.first_sse = body_idx
        hdr = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
               b"Cache-Control: no-cache, no-transform\r\nTransfer-Encoding: chunked\r\n"
               + b"\r\n".join(common) + b"\r\n\r\n")
        writes = []
        t_hdr = t + min(0.0008, proc * 0.2)
        pend = hdr
        if srv["sse_hdr_flush"]:
            writes.append((t_hdr, hdr))
            pend = b""
        nprog = rng.choice([0, 0, 1, 2, 3]) if kind == "call" else 0
        if nprog:
            if self.n_sse_single == 0:
                self.n_sse_streaming += 1
        else:
            self.n_sse_single += 1
        for k in range(nprog):
            tk = t_hdr + proc * (k + 1) / (nprog + 1)
            ev = self.sse_event(b'{"jsonrpc":"2.0","method":"notifications/progress","params":'
                                b'{"progressToken":"pt-%d-%d","progress":%d,"total":%d,'
                                b'"message":"%s"}}' % (self.idx, rid, k + 1, nprog + 1,
                                                       self.g.tpl.text(rng, rng.randint(10, 60))))
            writes.append((tk, pend + self.chunks(ev)))
            pend = b""
        last = pend + self.chunks(self.sse_event(result))
        if srv["sep_last_chunk"]:
            writes.append((t + proc, last))
            writes.append((t + proc + 0.0002, b"0\r\n\r\n"))
        else:
            writes.append((t + proc, last + b"0\r\n\r\n"))
        return writes

    # -- the session as a sequence of packet batches ---------------------------------------
    def run(self):
        rng = self.rng
        rtt = self.rtt
        t = self.t0
        conn = None
        body_idx = 0
        ci = 0
        rid = 0
        nplan = len(self.plan)
        for pi, kind in enumerate(self.plan):
            out = []
            per_req = self.mode == "per_request"
            if conn is None:
                conn = Conn(self, self.cport, rng)
                self.cport = 32768 + (self.cport - 32768 + rng.randint(1, 7)) % 28000
                self.n_conns += 1
                conn.out = out
                t = conn.handshake(t) + 0.00001
            conn.out = out
            conn.nreq += 1
            last_on_conn = per_req or pi == nplan - 1 or (
                self.mode == "reconnect" and conn.nreq >= rng.randint(2, 5))
            close_hdr = per_req
            # request
            if kind == "initialized":
                this_id = None
            else:
                this_id = rid
                rid += 1
            body = self.body_for(kind, this_id, ci)
            hdr, body = self.request(kind, this_id, body, close_hdr)
            self.n_req += 1
            gap = self.tx_c
            if self.split_headers and body:
                t1, pend = conn.send(C2S, t, hdr, gap, 0.00003)
                t1, pend = conn.send(C2S, t1 + 0.00005, body, gap, 0.00003)
            else:
                t1, pend = conn.send(C2S, t, hdr + body, gap, 0.00003)
            # server processing time
            if kind == "call":
                proc = loguniform(rng, 0.005, 3.0)
            elif kind == "initialize" or kind == "tools/list":
                proc = loguniform(rng, 0.001, 0.03)
            else:
                proc = loguniform(rng, 0.0002, 0.002)
            has_body = kind not in ("initialized", "delete")
            writes = self.response_writes(kind, this_id, ci if kind == "call" else 0,
                                          body_idx, t1, proc, close_hdr)
            if pend is not None and writes[0][0] > t1 + 0.04:
                conn.emit(S2C, t1 + 0.04, F_ACK, conn.seq[S2C], conn.seq[C2S])  # delayed ACK
            if has_body:
                body_idx += 1
            if kind == "call":
                ci += 1
            tend = t1
            pend = None
            for tw, data in writes:
                tw = max(tw, tend + 0.00001)
                tend, p = conn.send(S2C, tw, data, self.tx_s, rtt)
                pend = p
            if pend is not None and not (last_on_conn and per_req):
                conn.emit(C2S, tend + rtt + 0.0005, F_ACK, conn.seq[C2S], pend)
                tend = tend + rtt + 0.0005
            # connection end
            if last_on_conn:
                if per_req:
                    tend = conn.close(tend + 0.00002, S2C)  # server closes (Connection: close)
                else:
                    tend = conn.close(tend + rtt + loguniform(rng, 0.001, 0.5), C2S)
                conn = None
            out.sort(key=_ts_key)
            if not self.g.clean:
                self.g.noise(self.nrng, out)
            yield out
            # think time before the next request
            if kind == "initialize":
                t = tend + rtt + 0.0003
            elif kind == "initialized":
                t = tend + loguniform(rng, 0.0005, 0.05)
            else:
                t = tend + rtt + loguniform(rng, 0.1, 8.0)

    def truth_row(self):
        return "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%d,%d,%d,%d" % (
            self.sid_hdr.decode(), 1 if self.style == "downgraded" else 0, self.n_req, self.n_resp,
            self.n_json, self.n_sse, self.n_nobody, self.n_events, self.n_events_id, self.n_conns,
            6 if self.v6 else 4, self.style, self.mode, self.first_sse, self.idx,
            self.n_sse_single, self.n_sse_streaming)


def _ts_key(p):
    return p[0]


class Generator:
    def __init__(self, a):
        self.seed = a.seed
        self.calls = a.calls_per_session
        self.fixed_calls = a.fixed_calls
        self.downgrade_fraction = a.downgrade_fraction
        self.ipv6_fraction = a.ipv6_fraction
        self.clean = a.clean
        self.dup_rate = a.dup_rate
        self.ooo_rate = a.ooo_rate
        self.tpl = Templates(a.seed)
        self.n_dup = 0
        self.n_swap = 0

    def noise(self, rng, out):
        """Duplicate (~dup_rate) and swap with the next same-direction data segment (~ooo_rate)."""
        i = 0
        n = len(out)
        res = []
        rr = rng.random
        while i < n:
            p = out[i]
            if p[2] > 0:
                if i + 1 < n and out[i + 1][2] > 0 and out[i + 1][1] == p[1] and rr() < self.ooo_rate:
                    q = out[i + 1]
                    # keep timestamps in place, exchange the frames
                    res.append([p[0], q[1], q[2], q[3]])
                    res.append([q[0], p[1], p[2], p[3]])
                    self.n_swap += 1
                    i += 2
                    continue
                res.append(p)
                if rr() < self.dup_rate:
                    tn = out[i + 1][0] if i + 1 < n else p[0] + 0.0004
                    res.append([p[0] + (tn - p[0]) * 0.5, p[1], p[2], p[3]])
                    self.n_dup += 1
            else:
                res.append(p)
            i += 1
        out[:] = res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--calls-per-session", type=int, default=10)
    ap.add_argument("--fixed-calls", action="store_true", help="exactly M tools/call per session")
    ap.add_argument("--target-bytes", type=float, default=0,
                    help="generate sessions until about this many bytes (overrides --sessions)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--downgrade-fraction", type=float, default=0.1)
    ap.add_argument("--ipv6-fraction", type=float, default=0.1)
    ap.add_argument("--concurrency", type=float, default=256, help="mean concurrently open sessions")
    ap.add_argument("--clean", action="store_true", help="no duplicated / reordered segments")
    ap.add_argument("--dup-rate", type=float, default=0.005)
    ap.add_argument("--ooo-rate", type=float, default=0.005)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    t_start = time.time()
    g = Generator(a)
    arr = random.Random("%s:arrivals" % a.seed)
    mean_dur = 0.2 + max(a.calls_per_session, 1) * 2.3
    rate = a.concurrency / mean_dur
    target = int(a.target_bytes)

    f = open(a.out, "wb", buffering=0)
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
    written = 24
    buf = []
    buflen = 0
    npk = 0
    heap = []
    sessions = []
    next_sid = 0
    next_start = 0.0
    planned = 0
    stop = False
    inf = float("inf")
    rec = _rec
    base = BASE_EPOCH_US
    hpush, hpop = heapq.heappush, heapq.heappop

    def start_session():
        nonlocal next_sid, next_start, planned, stop
        s = Session(g, next_sid, next_start)
        sessions.append(s)
        planned += s.est_bytes
        b = next(s.gen)
        s.batch, s.pos = b, 0
        hpush(heap, (b[0][0], s.idx, s))
        next_sid += 1
        stop = planned >= target if target else next_sid >= a.sessions
        next_start += arr.expovariate(rate)

    while True:
        while not stop and (not heap or next_start <= heap[0][0]):
            start_session()
        if not heap:
            break
        _, sid, s = hpop(heap)
        lim = heap[0][0] if heap else inf
        if not stop and next_start < lim:
            lim = next_start
        b = s.batch
        pos = s.pos
        nb = len(b)
        while True:
            ts, _d, _l, fr = b[pos]
            us = base + int(ts * 1e6)
            ln = len(fr)
            buf.append(rec(us // 1_000_000, us % 1_000_000, ln, ln))
            buf.append(fr)
            buflen += ln + 16
            npk += 1
            pos += 1
            if pos == nb:
                try:
                    b = next(s.gen)
                except StopIteration:
                    b = None
                    s.gen = None
                    s.batch = None
                    break
                pos = 0
                nb = len(b)
            if b[pos][0] > lim:
                break
        if b is not None:
            s.batch, s.pos = b, pos
            hpush(heap, (b[pos][0], sid, s))
        if buflen >= 8 << 20:
            f.write(b"".join(buf))
            written += buflen
            buf = []
            buflen = 0
    f.write(b"".join(buf))
    written += buflen
    f.close()

    tot = [0] * 9
    with open(a.out + ".truth.csv", "w") as tf:
        tf.write("session_id,downgraded,http_requests,http_responses,responses_json,responses_sse,"
                 "responses_nobody,sse_events,sse_events_with_id,tcp_connections,ip_version,style,"
                 "conn_mode,first_sse_body_response,session_index,sse_single,sse_streaming\n")
        for s in sessions:
            tf.write(s.truth_row() + "\n")
            for k, v in enumerate((1 if s.style == "downgraded" else 0, s.n_req, s.n_resp, s.n_json,
                                   s.n_sse, s.n_nobody, s.n_events, s.n_events_id, s.n_conns)):
                tot[k] += v
        tf.write("TOTAL,%d,%d,%d,%d,%d,%d,%d,%d,%d,,,,,%d,,\n" % (*tot, len(sessions)))
    el = time.time() - t_start
    print("wrote %s: %d bytes, %d packets, %d sessions (%d downgraded), %d requests, %d responses "
          "(json %d, sse %d, no body %d), %d tcp connections, %d dup, %d swapped; %.1f s, %.1f MB/s"
          % (a.out, written, npk, len(sessions), tot[0], tot[1], tot[2], tot[3], tot[4], tot[5],
             tot[8], g.n_dup, g.n_swap, el, written / el / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()

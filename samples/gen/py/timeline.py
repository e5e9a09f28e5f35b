"""Timing and header view of a sample capture, complementing describe.py (which it imports).

    python timeline.py FILE.pcap

describe.py lists the HTTP exchanges; the incident captures also need *when* things happened (stalls, idle
streams, buffered bursts, 5xx cascades) and a few more headers. This prints:

  * every HTTP exchange with the capture-relative time (seconds) of its request and of its status line, and the
    headers describe.py leaves out: Mcp-Method, Mcp-Name, Last-Event-ID, Accept (requests); X-Accel-Buffering,
    Allow, Server (responses);
  * for every text/event-stream response, one line per server->client data segment of it: frame, time, and what
    the segment carries (`id=..`, `retry=..`, `event=..`, the JSON-RPC message, `: comment`, `0-chunk`). This
    per-segment view decodes each segment on its own, which is exact for these loopback captures (one SSE
    event per chunk per segment);
  * how each TCP connection ended, with times.

If describe.py cannot rebuild the HTTP exchanges (bytes missing from a stream), it prints the raw per-segment
listing of every connection instead, with TCP sequence numbers, so the hole can be seen.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import describe  # noqa: E402

FIELDS = ["frame.number", "frame.time_relative", "tcp.stream", "tcp.srcport", "tcp.dstport", "tcp.seq",
          "tcp.len", "tcp.flags.fin", "tcp.flags.reset", "tcp.payload"]
HEX = re.compile(r"^[0-9a-fA-F]+$")


def frames(path):
    cmd = ["tshark", "-r", path, "-o", "tcp.desegment_tcp_streams:FALSE", "-o", "tcp.relative_sequence_numbers:TRUE",
           "-Y", "tcp", "-T", "fields", "-E", "separator=\t"] + [x for f in FIELDS for x in ("-e", f)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split("\t")
        p += [""] * (len(FIELDS) - len(p))
        d = dict(zip(FIELDS, p))
        d["frame"] = int(d["frame.number"])
        d["t"] = float(d["frame.time_relative"])
        d["conn"] = int(d["tcp.stream"])
        d["payload"] = bytes.fromhex(d["tcp.payload"].replace(":", "")) if d["tcp.payload"] else b""
        yield d


def summarize_segment(data: bytes) -> str:
    """What one SSE segment carries (chunk framing skipped)."""
    parts = []
    text = data.decode("utf-8", "replace")
    if text.startswith("HTTP/1."):
        head, _, text = text.partition("\r\n\r\n")
        parts.append(head.split("\r\n")[0])
    for ln in re.split(r"\r\n|\n", text):
        if not ln:
            continue
        if HEX.match(ln):
            if ln == "0":
                parts.append("0-chunk")
            continue
        if ln.startswith(":"):
            parts.append(": comment" + (f" ({ln[1:].strip()[:40]})" if ln[1:].strip() else ""))
        elif ln.startswith("id:"):
            parts.append("id=" + ln[3:].strip())
        elif ln.startswith("retry:"):
            parts.append("retry=" + ln[6:].strip())
        elif ln.startswith("event:"):
            ev = ln[6:].strip()
            if ev != "message":
                parts.append("event=" + ev)
        elif ln.startswith("data:"):
            d = ln[5:].strip()
            if not d:
                parts.append("data=(empty)")
                continue
            try:
                parts.append(describe.rpc_summary(json.loads(d)))
            except ValueError:
                parts.append("data=" + d[:60])
        else:
            parts.append(repr(ln[:40]))
    return " ".join(parts) or "(chunk framing only)"


def main(path: str) -> None:
    fr = list(frames(path))
    by_frame = {f["frame"]: f for f in fr}
    server_ports = {}
    for f in fr:  # the server port of a connection is the destination of its first packet (SYN)
        server_ports.setdefault(f["conn"], f["tcp.dstport"])
    print(f"# {Path(path).name}: timeline (t = seconds since the first frame)")
    try:
        conns, exchanges = describe.analyse(path)
    except Exception as e:  # noqa: BLE001 - a capture with missing bytes
        print(f"describe.py cannot rebuild the HTTP exchanges ({type(e).__name__}: {e}); raw segments follow")
        raw_listing(fr, server_ports)
        return

    for _, st, rq, rs in exchanges:
        method, target = rq["start"].split()[:2]
        extra = [f"{h}={rq['h'][h]}" for h in ("mcp-method", "mcp-name", "last-event-id", "accept") if h in rq["h"]]
        line = f"conn {st} req={rq['frame']} t={by_frame[rq['frame']]['t']:.3f} {method} {target} " + " ".join(extra)
        if rs is None:
            print(line + "  => no response")
            continue
        status = rs["start"].split()[1]
        rextra = [f"{h}={rs['h'][h]}" for h in ("x-accel-buffering", "allow", "server") if h in rs["h"]]
        print(f"{line}  => resp={rs['frame']} t={by_frame[rs['frame']]['t']:.3f} {status} "
              f"end={rs['end_frame']} t={by_frame[rs['end_frame']]['t']:.3f} " + " ".join(rextra))
        if rs["h"].get("content-type", "").startswith("text/event-stream"):
            for f in fr:
                if (f["conn"] == st and f["tcp.srcport"] == server_ports[st] and f["payload"]
                        and rs["frame"] <= f["frame"] <= rs["end_frame"]):
                    print(f"      frame {f['frame']} t={f['t']:.3f} {summarize_segment(f['payload'])}")

    print()
    for st, c in sorted(conns.items()):
        ends = []
        for e in c["ends"][:2]:
            n = int(e.rsplit("@", 1)[1])
            ends.append(f"{e} t={by_frame[n]['t']:.3f}")
        print(f"conn {st}: first frame {c['first']} t={by_frame[c['first']]['t']:.3f}; " + (", ".join(ends) or "open"))


def raw_listing(fr, server_ports) -> None:
    last_end = defaultdict(lambda: None)
    for f in fr:
        srv = f["tcp.srcport"] == server_ports[f["conn"]]
        who = "server" if srv else "client"
        flags = ("FIN " if f["tcp.flags.fin"] in ("1", "True") else "") + \
                ("RST " if f["tcp.flags.reset"] in ("1", "True") else "")
        seq, ln = int(f["tcp.seq"] or 0), int(f["tcp.len"] or 0)
        note = ""
        key = (f["conn"], who)
        if ln and last_end[key] is not None and seq > last_end[key]:
            note = f"  <-- {seq - last_end[key]} bytes missing before this segment (seq {last_end[key]}..{seq - 1})"
        if ln:
            last_end[key] = max(seq + ln, last_end[key] or 0)
        first = f["payload"].split(b"\r\n", 1)[0][:60].decode("latin-1") if ln else ""
        print(f"frame {f['frame']} t={f['t']:.3f} conn {f['conn']} {who} {flags}seq={seq} len={ln} {first!r}{note}")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
        print()

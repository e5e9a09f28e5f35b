"""(sensor4's compare.py, copied unchanged but for this line.) Compare a live mcptap run (`mcptap -i lo -w LIVE.pcap -o LIVE.csv`) of a sensor4 scenario with `mcptap -r` on the
committed tcpdump capture and on mcptap's own -w file(s) (rotated files: all of them, `-r A -r B ...`, merged in
timestamp order, and their packets concatenated in that order for the packet comparison). sensor2's compare.py,
extended to several reports (rotated or reopened: rows concatenated), several -w files and key logs.

    python compare.py MCPTAP LIVE-REPORT[,LIVE-REPORT..] LIVE-PCAP[,LIVE-PCAP..] TCPDUMP-PCAP [KEYLOG..]

Prints: the packets of the two captures (count, and the first place where their (timestamp, captured length, bytes)
lists differ); the rows of the live report, of `-r TCPDUMP` and of `-r LIVE-PCAP`, compared on every column but
`frames`, `sensor` and `pcap` (then on `frames` too); and the summary lines of the two offline runs. Only standard
library; MCPTAP is the binary (the live build reads files too).
"""

import csv
import io
import json
import struct
import subprocess
import sys

KEY = ("first_seen", "last_seen", "rule_id", "severity", "session_id", "client", "server", "host", "endpoint", "era",
       "count", "evidence", "action")


def packets(path):
    """(ts_ns, caplen, bytes) of every packet of a classic pcap file (micro- or nanosecond, either byte order)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    table = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\xa1\xb2\xc3\xd4": (">", 1000),
             b"\x4d\x3c\xb2\xa1": ("<", 1), b"\xa1\xb2\x3c\x4d": (">", 1)}
    if magic not in table:
        return None
    end, mult = table[magic]
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, _orig = struct.unpack(end + "IIII", data[off:off + 16])
        out.append((sec * 1_000_000_000 + frac * mult, incl, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


def rows_csv(text):
    r = list(csv.DictReader(io.StringIO(text)))
    return r


def rows_live(path):
    with open(path) as f:
        text = f.read()
    if path.endswith(".jsonl"):
        out = []
        for line in text.splitlines():
            if line.strip():
                o = json.loads(line)
                out.append({k: ("" if v is None else (";".join(map(str, v)) if isinstance(v, list) else str(v)))
                            for k, v in o.items()})
        return out
    return rows_csv(text)


KEYLOGS = []


def offline(mcptap, pcap):
    args = [mcptap]
    for f in pcap.split(","):
        args += ["-r", f]
    for k in KEYLOGS:
        args += ["--keylog", k]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, rows_csv(p.stdout), p.stderr


def key(row, with_frames=False):
    k = tuple(row.get(c, "?") for c in KEY)
    return k + ((row.get("frames", "?"),) if with_frames else ())


def show(rows):
    for r in rows:
        print("      ", r.get("rule_id"), r.get("session_id"), r.get("server"), "count", r.get("count"),
              "frames", r.get("frames"))


def diff(name_a, a, name_b, b, with_frames):
    ka = sorted(key(r, with_frames) for r in a)
    kb = sorted(key(r, with_frames) for r in b)
    only_a = [x for x in ka if x not in kb]
    only_b = [x for x in kb if x not in ka]
    what = "all columns but sensor/pcap" if with_frames else "all columns but frames/sensor/pcap"
    if not only_a and not only_b:
        print(f"  {name_a} == {name_b} ({len(ka)} rows; {what})")
        return
    print(f"  {name_a} != {name_b} ({what}):")
    for x in only_a:
        print(f"    only in {name_a}: {dict(zip(KEY + (('frames',) if with_frames else ()), x))}")
    for x in only_b:
        print(f"    only in {name_b}: {dict(zip(KEY + (('frames',) if with_frames else ()), x))}")


def main():
    mcptap, live_report, live_pcap, tcpdump_pcap = sys.argv[1:5]
    KEYLOGS.extend(sys.argv[5:])
    a = packets(tcpdump_pcap)
    b = []
    for f in live_pcap.split(","):
        pk = packets(f)
        print(f"  -w file {f.rsplit('/', 1)[-1]}: {None if pk is None else len(pk)} packets")
        b = None if (pk is None or b is None) else b + pk
    if b is not None:
        b.sort(key=lambda x: x[0])
    if a is None or b is None:
        print("  packets: a capture is not a classic pcap file")
    else:
        print(f"  packets: tcpdump {len(a)}, mcptap -w {len(b)}")
        same_bytes = sum(1 for x, y in zip(a, b) if x[2] == y[2] and x[1] == y[1])
        deltas = {}
        for x, y in zip(a, b):
            d = (y[0] - x[0]) // 1000
            deltas[d] = deltas.get(d, 0) + 1
        print(f"  frame by frame: {same_bytes} of {min(len(a), len(b))} with the same length and bytes; "
              f"timestamp -w minus tcpdump (us): {dict(sorted(deltas.items()))}")
        for i, (x, y) in enumerate(zip(a, b)):
            if x[1:] != y[1:]:
                print(f"  first frame whose bytes differ: {i + 1}")
                break
    live = [r for f in live_report.split(",") for r in rows_live(f)]
    rc1, off_t, err_t = offline(mcptap, tcpdump_pcap)
    rc2, off_w, err_w = offline(mcptap, live_pcap)
    print(f"  rows: live {len(live)}, -r tcpdump {len(off_t)} (exit {rc1}), -r live.pcap {len(off_w)} (exit {rc2})")
    print("  live rows:")
    show(live)
    for wf in (False, True):
        diff("live", live, "-r tcpdump", off_t, wf)
        diff("live", live, "-r live.pcap", off_w, wf)
        diff("-r tcpdump", off_t, "-r live.pcap", off_w, wf)
    for name, err in (("-r tcpdump", err_t), ("-r live.pcap", err_w)):
        print(f"  summary of {name}:")
        for line in err.splitlines():
            if line.strip().startswith(("packets:", "tcp:", "http:", "mcp:", "incidents:", "tls:")):
                print("     ", line.strip())


if __name__ == "__main__":
    main()

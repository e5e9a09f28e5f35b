"""sensor4's latency table: for each row the watcher saw (watch.py output), the time from its evidence packet (the
LAST frame of its `frames` column, looked up by number in the sensor's own -w file, whose timestamps are the
kernel's) to the moment the row was readable in the report. Only standard library.

    python latency.py WATCH-LOG LIVE-PCAP
"""

import csv
import io
import statistics
import struct
import sys


def stamps(path):
    data = open(path, "rb").read()
    end, mult = {b"\xd4\xc3\xb2\xa1": ("<", 1e-6), b"\x4d\x3c\xb2\xa1": ("<", 1e-9)}[data[:4]]
    out, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append(sec + frac * mult)
        off += 16 + incl
    return out


log, pcap = sys.argv[1], sys.argv[2]
ts = stamps(pcap)
lines = [l.rstrip("\n").split("\t", 1) for l in open(log) if "\t" in l]
header = next(csv.reader([lines[0][1]]))
lat = []
for wall, line in lines[1:]:
    row = dict(zip(header, next(csv.reader(io.StringIO(line)))))
    frames = [int(x) for x in row["frames"].split(";") if x]
    if not frames:
        print(f"  {row['rule_id']} no frames")
        continue
    f = frames[-1]
    d = float(wall) - ts[f - 1]
    lat.append(d)
    print(f"  {row['rule_id']:<24} session {row['session_id'][:8]} evidence frame {f:>5}  packet->row {d * 1000:8.1f} ms")
if lat:
    lat.sort()
    print(f"  {len(lat)} rows: min {lat[0]*1000:.1f} ms, median {statistics.median(lat)*1000:.1f} ms, "
          f"max {lat[-1]*1000:.1f} ms")

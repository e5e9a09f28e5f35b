#!/usr/bin/env python3
"""Capture loss against verdicts (issue 19): drop packets from a capture the way a capture path loses them, run
mcptap on each damaged copy and on the whole capture, and count the MCP rows of medium severity or more that the
damaged copy has and the whole capture does not (false: the loss made a verdict) and the reverse (missed: the
loss hid one). Prints a Markdown table.

Two kinds of loss: `random` drops each packet with probability P (a lossy span port); `burst` starts a run of 1 to
N consecutive packets of every kind (data, ACKs, FINs, both directions) with probability P per packet, which is
what a full capture ring does. Deterministic: fixed seeds.

    bench/loss.py [--mcptap target/release/mcptap] [--out target/loss] CAPTURE

CAPTURE: a classic pcap, e.g. `python3 bench/gen_mcp_pcap.py --target-bytes 100000000 --seed 7 --out X`.
"""

import argparse
import csv
import os
import random
import struct
import subprocess
import sys

CASES = [  # (kind, probability, longest burst, seed)
    ("random", 0.003, 1, 1),
    ("random", 0.01, 1, 1),
    ("random", 0.03, 1, 2),
    ("burst", 0.0002, 60, 3),
    ("burst", 0.001, 60, 4),
    ("burst", 0.002, 200, 5),
    ("burst", 0.005, 300, 6),
]


def damage(src, dst, kind, prob, longest, seed):
    """Writes the damaged copy; returns (packets, dropped)."""
    rng = random.Random(seed)
    left = n = dropped = 0
    with open(src, "rb") as f, open(dst, "wb") as o:
        head = f.read(24)
        if head[:4] not in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
            sys.exit(f"loss: {src}: not a little-endian classic pcap")
        o.write(head)
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            body = f.read(struct.unpack("<IIII", rec)[2])
            n += 1
            if left == 0 and rng.random() < prob:
                left = 1 if kind == "random" else rng.randint(1, longest)
            if left:
                left -= 1
                dropped += 1
                continue
            o.write(rec)
            o.write(body)
    return n, dropped


def verdicts(path):
    with open(path, newline="") as f:
        return {(r["rule_id"], r["session_id"]) for r in csv.DictReader(f)
                if r["rule_id"].startswith("MCP-") and r["severity"] in ("medium", "high", "critical")}


def run(mcptap, cap, out):
    subprocess.run([mcptap, "-q", "-r", cap, "-o", out], check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcptap", default="target/release/mcptap")
    ap.add_argument("--out", default="target/loss")
    ap.add_argument("capture")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    whole = os.path.join(a.out, "whole.csv")
    run(a.mcptap, a.capture, whole)
    clean = verdicts(whole)
    print(f"whole capture: {len(clean)} medium+ MCP rows")
    print()
    print("| loss | packets dropped | false rows | missed rows |")
    print("|---|---|---|---|")
    for kind, prob, longest, seed in CASES:
        cap = os.path.join(a.out, "damaged.pcap")
        n, dropped = damage(a.capture, cap, kind, prob, longest, seed)
        rep = os.path.join(a.out, f"{kind}-{prob}.csv")
        run(a.mcptap, cap, rep)
        got = verdicts(rep)
        false = sorted(got - clean)
        missed = sorted(clean - got)
        what = f"random {prob:.1%}" if kind == "random" else f"bursts of 1-{longest} at {prob * 1000:g}/1000"
        tally = lambda rows: ", ".join(f"{r} {sum(1 for x in rows if x[0] == r)}" for r in sorted({x[0] for x in rows})) or "0"
        print(f"| {what} | {dropped} of {n} ({dropped / n:.2%}) | {len(false)} ({tally(false)}) | {len(missed)} ({tally(missed)}) |")
        os.remove(cap)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks an mcptap report and summary against the synthetic generator's ground truth (bench/run.sh).

Usage: check.py TRUTH.csv REPORT.csv SUMMARY.txt [TSHARK_TYPES.txt]

Passes when mcptap raised the rows the incident catalogue (INCIDENTS.md, revised vocabulary) asks for and no
others, and counted the responses by content type the generator wrote. The generator's `downgraded` sessions
answer JSON first, then SSE without ids; `mixed` ones SSE with ids. An SSE reply after JSON replies is
MCP-SSE-SHIFT when its ids are a cursor or when it is per-request streaming (progress notifications before
the response), and MCP-SSE-DOWNGRADE when it carries only its response and no ids. So: exactly one
MCP-SSE-DOWNGRADE row for each downgraded session with a single-message SSE reply (`sse_single` > 0), exactly
one MCP-SSE-SHIFT row for each mixed session and each downgraded session with a streaming SSE reply before
its first single-message one (`sse_streaming` > 0: once a session is reported downgraded, a later streaming
reply is no news), and none for any other session. With a tshark output file (one http.content_type per
response), also says how many responses tshark got right. Exit 1 on any mismatch.
"""
import collections
import csv
import re
import sys


def main():
    truth_path, report_path, summary_path = sys.argv[1:4]
    tshark_path = sys.argv[4] if len(sys.argv) > 4 else None
    downgraded, mixed, total = set(), set(), None
    with open(truth_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["session_id"] == "TOTAL":
                total = row
                continue
            if "sse_single" not in row:
                sys.exit("check: %s: no sse_single column: regenerate the capture (bench/gen_mcp_pcap.py)" % truth_path)
            if row["downgraded"] == "1" and int(row["sse_single"]) > 0:
                downgraded.add(row["session_id"])
            if row["style"] == "mixed" or (row["downgraded"] == "1" and int(row["sse_streaming"]) > 0):
                mixed.add(row["session_id"])
    if total is None:
        sys.exit("check: %s: no TOTAL row" % truth_path)
    rows = collections.Counter()
    with open(report_path, newline="") as f:
        for row in csv.DictReader(f):
            rows[(row["rule_id"], row["session_id"])] += 1
    ok = True

    def expect_rule(rule, want):
        nonlocal ok
        got = {s for (r, s) in rows if r == rule}
        dup = sorted(s for (r, s), n in rows.items() if r == rule and n > 1)
        missing, extra = want - got, got - want
        good = not missing and not extra and not dup
        ok &= good
        print("  %-18s %s: %d expected, %d raised, %d missing, %d extra, %d duplicated%s" % (
            rule, "ok" if good else "FAIL", len(want), len(got), len(missing), len(extra), len(dup),
            "" if good else " (e.g. %s)" % sorted(missing | extra | set(dup))[:3]))

    expect_rule("MCP-SSE-DOWNGRADE", downgraded)
    expect_rule("MCP-SSE-SHIFT", mixed)

    summary = open(summary_path).read()
    m = re.search(r"responses by content type: (.*)", summary)
    by_type = {}
    if m:
        for part in m.group(1).split(", "):
            name, _, n = part.rpartition(" ")
            by_type[name] = int(n)
    want = {"application/json": int(total["responses_json"]), "text/event-stream": int(total["responses_sse"]),
            "none": int(total["responses_nobody"])}
    good = by_type == want
    ok &= good
    print("  %-18s %s: expected %s, mcptap %s" % ("responses by type", "ok" if good else "FAIL", want, by_type))
    if tshark_path:
        counts = collections.Counter()
        for line in open(tshark_path):
            t = line.strip().split(";")[0].strip().lower()
            counts[t or "none"] += 1
        wrong = sum(abs(counts.get(k, 0) - v) for k, v in want.items())
        print("  %-18s tshark %s: %d responses off" % ("", dict(counts), wrong))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

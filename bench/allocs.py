#!/usr/bin/env python3
"""Allocations of one mcptap run, by what they scale with (issue 17: "a handful per HTTP message").

    valgrind --tool=dhat --num-callers=50 --dhat-out-file=dhat.json \
        target/release/mcptap -r CAPTURE -q -o /dev/null
    python3 bench/allocs.py dhat.json [HTTP_MESSAGES CONNECTIONS SESSIONS] [--top N]

Each allocation site (the innermost mcptap frame of its stack) is put in one class:

  start-up         loading the built-in rules (the CEL parser), the command line, opening the capture:
                   a capture without packets allocates exactly as much
  rules (CEL)      evaluating a rule condition the native guard cannot decide (src/detect/guard.rs)
  incidents        raising an incident and writing the report
  per connection   a connection's layer stack, its first request target, host and session id
  per session      a session's key, record and negotiated versions
  per message      everything else: heads, bodies, SSE events, facts

The counts (HTTP messages, connections, sessions) are taken from the arguments when given, else printed
as blocks only. The classes are a reading of the sites listed below them, not a proof: a site named in
the wrong class would show up in that class's list.
"""
import json
import re
import sys

STARTUP_STACK = ("load_rules", "RuleSet::builtin", "Rule::parse")
STARTUP_SITE = ("cli", "augment", "try_parse", "CaptureReader::open", "from_readers", "summarize", "sharing", "mcptap::run", "app::main")
CEL = ("matches_in_cel", "eval_values", "cel_value", "param_value")
REPORT = ("Incidents::raise", "mcptap::output::", "Timestamp::rfc3339", "render_evidence", "FieldValue as core::fmt::Display")
CONNECTION = ("RunWide::route", "rpc::Gather", "mcp::Tx", "Undecided", "HttpConn::new", "Interned::intern", "open_conn", "McpTracker::open", "Lru")
SESSION = ("Session::new", "new<mcptap::mcp::session::Session>", "SessionKey::unique", "to_owned_key", "Versions::negotiated", "SessionTable", "client_mut", "handshakes")
ORDER = ["start-up", "rules (CEL)", "incidents", "per connection", "per session", "per message"]


def site_of(frames):
    for f in frames:
        if "mcptap::" in f:
            where = re.search(r"\(([^()]*\.rs):(\d+)\)", f)
            name = re.sub(r"^0x[0-9A-F]+: ", "", f).split(" (")[0]
            return (f"{where.group(1).split('/')[-1]}:{where.group(2)} " if where else "") + name[-70:]
    return None


def classify(frames, site):
    stack = " ".join(frames)
    if site is None or any(x in stack for x in STARTUP_STACK) or any(x in site for x in STARTUP_SITE):
        return "start-up"
    if any(x in stack for x in CEL):
        return "rules (CEL)"
    if any(x in stack for x in REPORT):
        return "incidents"
    if any(x in site for x in CONNECTION):
        return "per connection"
    # A new target is copied once per connection; a repeated one is shared (src/stack/http/head.rs).
    if "request_into" in site and "head.rs" in site:
        return "per connection"
    if any(x in site for x in SESSION):
        return "per session"
    return "per message"


def main(argv):
    top = 12
    if "--top" in argv:
        i = argv.index("--top")
        top = int(argv[i + 1])
        del argv[i : i + 2]
    if len(argv) not in (2, 5):
        sys.exit(__doc__)
    dhat = json.load(open(argv[1]))
    frames_of = dhat["ftbl"]
    blocks = {c: 0 for c in ORDER}
    sites = {c: {} for c in ORDER}
    for pp in dhat["pps"]:
        frames = [frames_of[i] for i in pp["fs"]]
        site = site_of(frames)
        c = classify(frames, site)
        blocks[c] += pp["tbk"]
        sites[c][site] = sites[c].get(site, 0) + pp["tbk"]
    per = {}
    if len(argv) == 5:
        messages, connections, sessions = (int(x) for x in argv[2:5])
        per = {"per message": ("HTTP message", messages), "per connection": ("connection", connections), "per session": ("session", sessions)}
    print(f"{sum(blocks.values()):8d} blocks in all")
    for c in ORDER:
        line = f"{blocks[c]:8d} {c}"
        if c in per and per[c][1]:
            line += f"  ({blocks[c] / per[c][1]:.1f} per {per[c][0]})"
        print(line)
    for c in ("per message", "per connection", "per session"):
        print(f"-- {c}")
        for s, n in sorted(sites[c].items(), key=lambda x: -x[1])[:top]:
            print(f"   {n:7d} {s}")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "resume": real SDK clients and servers when an SSE stream is really cut mid-flight,
# and what they then do on their own: reconnect with or without Last-Event-ID, replay, give up. A small TCP relay of
# our own (resume/relay.py, asyncio) sits between the client and the server and forwards bytes untouched; on the first
# connection whose request matches a pattern it counts the SSE events it forwards and, after the N-th, resets both
# sides of that one connection (RST each way, SO_LINGER 0). Nothing else is shaped: ids, reconnects, Last-Event-ID,
# replay are the SDKs' own. Plain HTTP/1.1, captured on loopback (127.0.0.1, ports 18940-18953 only), both hops in
# one capture (client <-> relay, relay <-> server).
#
#   sudo bash samples/gen/ecosystem/resume.sh             # every scenario
#   sudo bash samples/gen/ecosystem/resume.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/resume-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   ts-post-cut          TS server with the SDK's example InMemoryEventStore (relay 18940 -> server 18941), TS client:
#                        slow_count(20) (20 progress notifications 0.1 s apart, with a progressToken); its POST SSE
#                        stream is cut after 4 events
#   ts-get-cut           the same pair (18942 -> 18943): ticker(10) (10 notifications/message 0.2 s apart on the
#                        standalone GET stream); the GET stream is cut after 3 events, the client idles 5 s
#   ts-post-cut-nostore  TS server WITHOUT event store (18948 -> 18949), TS client: slow_count(20), POST stream cut
#                        after 3 events (no ids to resume with)
#   ts-restart           TS server with InMemoryEventStore (18950 -> 18951), TS client: slow_count(20), POST stream
#                        cut after 4 events; as soon as the relay has cut, this script kills the server (SIGKILL) and
#                        starts it again (new process, empty memory) before the client's own reconnect (1 s later)
#   py-post-cut          Python SDK server with an in-memory event store (18944 -> 18945), Python SDK client
#                        (mode="legacy"): slow_count(20), POST stream cut after 4 events
#   py-get-cut           the same pair (18946 -> 18947): ticker(10), GET stream cut after 3 events, 5 s idle
#   py-post-cut-nostore  Python SDK server WITHOUT event store (18952 -> 18953), Python client: slow_count(20), POST
#                        stream cut after 3 events
# After the tool call every client calls add(40,2) and closes (DELETE): the session's state after the cut shows.
#
# Servers: the TS SDK 1.32.2 server on express (resume/ts-server.mjs: the SDK README's stateful pattern of
# ../ts_common.mjs routeSessions, with or without `eventStore: new InMemoryEventStore()` from the SDK's
# examples/shared, no retryInterval) and the Python SDK 2.3.0 server (resume/resume_py.py: MCPServer
# streamable_http_app, stateful, SSE replies, `event_store=` an in-memory store after the SDK repository's example,
# or none) under uvicorn. Clients: the TS SDK client (resume/client.mjs) and the Python SDK client (resume_py.py
# client); neither retries a request or re-initializes by itself beyond what its SDK does.
#
# Needs root (tcpdump), tcpdump, tshark (resume/wire.py), python3 with venv, node 20 + npm. First use makes
# resume/.venv (resume/requirements.txt) and resume/node_modules (`npm ci`). All git-ignored (resume/.gitignore).
# Results and labels: samples/ecosystem/resume.md, samples/ecosystem/labels-resume.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/resume"                                         # harness code, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the relay's cut marker
VPY="$W/.venv/bin/python"
GROUP=resume
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

# mcp_server KIND(ts|py) STORE(store|nostore) NAME PORT: the server, up before the capture starts; pid in LAST_PID.
mcp_server() {
    if [ "$1" = ts ]; then
        server "$3" "$4" node "$W/ts-server.mjs" "$4" "$2"
    elif [ "$2" = store ]; then
        server "$3" "$4" "$VPY" "$W/resume_py.py" server --port "$4" --store
    else
        server "$3" "$4" "$VPY" "$W/resume_py.py" server --port "$4"
    fi
}

# relay NAME FRONT BACK MATCH AFTER: the cutter on FRONT -> BACK (see resume/relay.py); it writes run/NAME.cut when
# it has cut.
relay() {
    rm -f "$RUN/$1.cut"
    server "$1-relay" "$2" "$VPY" "$W/relay.py" --listen "$2" --to "$3" --match "$4" --after "$5" --cut-file "$RUN/$1.cut"
}

# client KIND(ts|py) NAME URL WHAT(slow|ticker) N: one bounded client run (timeout 60), output in run/NAME-client.log.
client() {
    local kind=$1 name=$2; shift 2
    if [ "$kind" = ts ]; then
        run "$name-client" node "$W/client.mjs" "$@"
    else
        run "$name-client" "$VPY" "$W/resume_py.py" client --url "$@"
    fi
}

# logs NAME: what the relay and the server(s) said, indented.
logs() {
    local f
    for f in "$RUN/$1-relay.log" "$RUN/$1-server.log" "$RUN/$1-server2.log"; do
        [ -f "$f" ] && grep -v '^\s*$' "$f" | cut -c1-150 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}

# cut_run NAME KIND STORE FRONT BACK MATCH AFTER WHAT N: server KIND/STORE on BACK, the relay on FRONT cutting the first
# connection matching MATCH after AFTER events, capture of both ports, one client run through the relay (WHAT N),
# stop, everything down.
cut_run() {
    local name=$1 kind=$2 store=$3 front=$4 back=$5 match=$6 after=$7 what=$8 n=$9
    rm -f "$RUN/$name"-*.log
    free "$front" "$back"
    mcp_server "$kind" "$store" "$name-server" "$back"
    relay "$name" "$front" "$back" "$match" "$after"
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$back")
    capture_start "$name" "$front" "$back"
    client "$kind" "$name" "http://$HOST:$front/mcp" "$what" "$n"
    capture_stop "$name"
    logs "$name"
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
SLOW='"name":"slow_count"'
GET='^GET /mcp'
scenario_ts-post-cut() { cut_run ts-post-cut ts store 18940 18941 "$SLOW" 4 slow 20; }
scenario_ts-get-cut() { cut_run ts-get-cut ts store 18942 18943 "$GET" 3 ticker 10; }
scenario_ts-post-cut-nostore() { cut_run ts-post-cut-nostore ts nostore 18948 18949 "$SLOW" 3 slow 20; }
scenario_py-post-cut() { cut_run py-post-cut py store 18944 18945 "$SLOW" 4 slow 20; }
scenario_py-get-cut() { cut_run py-get-cut py store 18946 18947 "$GET" 3 ticker 10; }
scenario_py-post-cut-nostore() { cut_run py-post-cut-nostore py nostore 18952 18953 "$SLOW" 3 slow 20; }

scenario_ts-restart() {
    local name=ts-restart front=18950 back=18951 cpid rc=0 i spid
    rm -f "$RUN/$name"-*.log
    free "$front" "$back"
    mcp_server ts store "$name-server" "$back"; spid=$LAST_PID
    relay "$name" "$front" "$back" "$SLOW" 4
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$back")
    capture_start "$name" "$front" "$back"
    timeout 60 node "$W/client.mjs" "http://$HOST:$front/mcp" slow 20 >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do [ -s "$RUN/$name.cut" ] || ! kill -0 "$cpid" 2>/dev/null && break; sleep 0.02; done
    if [ -s "$RUN/$name.cut" ]; then
        echo "   the relay cut the stream: killing the server (SIGKILL) and starting it again"
        stop "$spid" KILL
        mcp_server ts store "$name-server2" "$back"
    else
        echo "   the relay did not cut (no restart)"
    fi
    wait "$cpid" || rc=$?
    grep -vE '^\s+at |^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -30 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    logs "$name"
    cleanup
}

ALL=(ts-post-cut ts-get-cut ts-post-cut-nostore ts-restart py-post-cut py-get-cut py-post-cut-nostore)

run_scenarios "tcpdump tshark node npm" -- "$@"

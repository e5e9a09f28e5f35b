#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations3": MCP sessions that outlive a server process. A server built on
# @karashiiro/mcp 0.7.0 (`serveHttp` with `sessions.eventStoreFactory`, the library's documented hook for persistent
# storage; official TS SDK 1.32.2 McpServer and transport underneath) restores a session it does not hold in memory
# from its event store: the session id survives a restart, and a second replica pointed at the same store serves it
# too. The store (situations3/server.mjs) is written as a user would: a JSON file per session in a shared directory,
# event ids either in the library's own format (`time`: `<streamId>_<ms>_<random>`) or a per-session sequence number
# kept in the store object's memory (`counter`: 1, 2, 3, ..., back at 1 in every new process). The official SDK
# clients, unmodified, with their own reconnect/resume logic: TS SDK 1.32.2 (situations3/client.mjs) and Python SDK
# mcp 2.3.0 (situations3/client.py, the sdks group's venv). Application logic: initialize, tools/list, ticker(8)
# (log notifications on the standalone GET stream), after the 4th notification a marker file for the harness, a few
# seconds idle, ticker(3), add(40,2), DELETE. Captured on loopback (127.0.0.1, ports 19970-19989):
#   restart-time-ts     port 19970: TS client -> server (ids `time`); SIGKILL after the 4th tick, restarted at once
#   restart-counter-ts  port 19971: the same, ids `counter`
#   restart-time-py     port 19972: Python client -> server (ids `time`), SIGKILL + restart
#   restart-counter-py  port 19973: the same, ids `counter`
#   replicas-time-ts    ports 19974 (nginx, round-robin) -> 19975/19976 (two replicas, one store directory), ids
#                       `time`; after the 4th tick (or 4 s) the replica holding the GET stream is SIGKILLed, not
#                       restarted, so the reconnect lands on the other one
#   replicas-counter-ts ports 19977 -> 19978/19979: the same, ids `counter`
#   replicas-counter-py ports 19980 -> 19981/19982: the same with the Python client
#   replicas-time-py    ports 19983 -> 19984/19985: the same with the Python client, ids `time`
#   replicas-postcut-ts ports 19987 -> 19988/19989, ids `time`: the TS client's first call is slow_count(20) with a
#                       progressToken (client.mjs mode `slow`); after the 4th progress event the replica holding the
#                       most open streams (the POST reply's) is SIGKILLed; the client's SDK resumes the POST stream
#
#   sudo bash samples/gen/ecosystem/situations3.sh             # every scenario (about 2 minutes after setup)
#   sudo bash samples/gen/ecosystem/situations3.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations3-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations3-<scenario>.pcap.txt
# (../replicas/wire.py: `- PORT` for one hop, `FRONT A B` for nginx and its replicas). Each process is bounded
# (timeout) and stopped after its scenario; a guard capture on every interface (lib.sh guard_start/guard_stop)
# checks that nothing left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), nginx (Debian 12: `apt-get install -y nginx`; run as our own
# process with a private prefix, the system service untouched), python3 with venv, node 20 + npm. First use makes
# the sdks group's venv sdks/.venv (mcp 2.3.0) and situations3/node_modules (`npm ci` from situations3/package-lock.json:
# @karashiiro/mcp 0.7.0, @modelcontextprotocol/sdk 1.32.2, hono 4.13.23, @hono/node-server 1.19.19, zod 3.25.76).
# All git-ignored. Results and labels: samples/ecosystem/situations3.md, samples/ecosystem/labels-situations3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/situations3"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations3
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"
TS_CLIENT=(node "$W/client.mjs")              # URL READY N MS K WAIT
PY_CLIENT=("$SDKPY" "$W/client.py")           # URL READY N MS K WAIT
CLIENT_ARGS=(8 150 4 4)                       # ticker(8) 150 ms apart, marker after the 4th tick, then 4 s idle
SLOW_ARGS=(20 0 4 2 slow)                     # slow_count(20) (progress 0.1 s apart), marker after the 4th progress

setup() {
    setup_pysdk
    need_npm "$W"
}

U() { echo "http://$HOST:$1/mcp"; }
describe() { DESCRIBE=("$SDKPY" "$ECO/replicas/wire.py" "$@"); }

# down: SIGINT to each process group started by bg, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# srv NAME PORT STORE IDS: one server process (bg, its log RUN/NAME.log); LAST_PID is its group.
srv() { bg "$1" node "$W/server.mjs" "$2" "$3" "$4"; listening "$2"; }
# await_ready FILE SECONDS: wait for the client's marker (the K-th tick), at most SECONDS.
await_ready() {
    local i
    for i in $(seq 1 $(($2 * 20))); do [ -f "$1" ] && return 0; sleep 0.05; done
    echo "   (no marker after $2 s: going on)"
}
# finish NAME: capture stop and listing, everything down, guard off, the logs' tails.
finish() {
    local name=$1 f
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -12 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}

# restart NAME PORT IDS SIGNAL CLIENT...: the server on PORT, the client; at its marker the server gets SIGNAL and a
# new process (same store directory) is started at once.
restart() {
    local name=$1 port=$2 ids=$3 sig=$4; shift 4
    local store="$RUN/store-$name" ready="$RUN/$name.ready" cpid
    describe - "$port"
    guard_start "$name"
    free "$port"
    rm -rf "$store" "$ready" "$RUN/$name"-*.log
    srv "$name-server" "$port" "$store" "$ids"
    local first=$LAST_PID
    capture_start "$name" "$port"
    timeout 45 "$@" "$(U "$port")" "$ready" "${CLIENT_ARGS[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 10
    kill "-$sig" -- "-$first" 2>/dev/null || true
    wait "$first" 2>/dev/null || true
    free "$port"
    srv "$name-server" "$port" "$store" "$ids"
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}

# replicas NAME FRONT A B IDS CLIENT...: two server processes on A and B sharing one store directory, nginx on FRONT
# (round-robin), the client (arguments ARGS, default CLIENT_ARGS); at its marker (or after 4 s) the replica that holds
# the most upstream connections (the open streams: nginx opens a new upstream connection per request and closes it
# after the reply) is SIGKILLed.
replicas() {
    local name=$1 front=$2 a=$3 b=$4 ids=$5; shift 5
    local store="$RUN/store-$name" ready="$RUN/$name.ready" d="$RUN/nginx-$name" cpid pa pb victim
    describe "$front" "$a" "$b"
    guard_start "$name"
    free "$front" "$a" "$b"
    rm -rf "$store" "$ready" "$d" "$RUN/$name"-*.log
    srv "$name-a" "$a" "$store" "$ids"; pa=$LAST_PID
    srv "$name-b" "$b" "$store" "$ids"; pb=$LAST_PID
    mkdir -p "$d/tmp"
    sed -e "s/@FRONT@/$front/g" -e "s/@A@/$a/g" -e "s/@B@/$b/g" "$W/nginx.conf.in" >"$d/nginx.conf"
    bg "$name-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$front"
    sleep 0.5
    capture_start "$name" "$front" "$a" "$b"
    local args=("${CLIENT_ARGS[@]}") na nb
    [ -z "${ARGS+x}" ] || args=("${ARGS[@]}")
    timeout 45 "$@" "$(U "$front")" "$ready" "${args[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 4
    na=$(ss -Htn state established "( sport = :$a )" | wc -l); nb=$(ss -Htn state established "( sport = :$b )" | wc -l)
    if [ "$nb" -gt "$na" ]; then victim=$pb; echo "   $nb upstream connections on $b, $na on $a: SIGKILL $b"
    else victim=$pa; echo "   $na upstream connections on $a, $nb on $b: SIGKILL $a"; fi
    kill -KILL -- "-$victim" 2>/dev/null || true
    wait "$victim" 2>/dev/null || true
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_restart-time-ts()     { restart restart-time-ts 19970 time KILL "${TS_CLIENT[@]}"; }
scenario_restart-counter-ts()  { restart restart-counter-ts 19971 counter KILL "${TS_CLIENT[@]}"; }
scenario_restart-time-py()     { restart restart-time-py 19972 time KILL "${PY_CLIENT[@]}"; }
scenario_restart-counter-py()  { restart restart-counter-py 19973 counter KILL "${PY_CLIENT[@]}"; }
scenario_replicas-time-ts()    { replicas replicas-time-ts 19974 19975 19976 time "${TS_CLIENT[@]}"; }
scenario_replicas-counter-ts() { replicas replicas-counter-ts 19977 19978 19979 counter "${TS_CLIENT[@]}"; }
scenario_replicas-counter-py() { replicas replicas-counter-py 19980 19981 19982 counter "${PY_CLIENT[@]}"; }
scenario_replicas-time-py()    { replicas replicas-time-py 19983 19984 19985 time "${PY_CLIENT[@]}"; }
scenario_replicas-postcut-ts() { ARGS=("${SLOW_ARGS[@]}"); replicas replicas-postcut-ts 19987 19988 19989 time "${TS_CLIENT[@]}"; unset ARGS; }

ALL=(restart-time-ts restart-counter-ts restart-time-py restart-counter-py
     replicas-time-ts replicas-counter-ts replicas-counter-py replicas-time-py replicas-postcut-ts)
run_scenarios "tcpdump tshark ss nginx node npm python3" -- "$@"

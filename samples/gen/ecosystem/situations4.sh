#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations4": replicas whose clocks disagree, and a second session store that
# outlives a process (SQLite). Replicas behind nginx (Debian 12's 1.22; every hop in one capture) and one restart:
#  1. The situations3 server (@karashiiro/mcp 0.7.0 serveHttp with a file event store shared by two replicas, event
#     ids `<stream>_<ms>_<random>`, official TS SDK 1.32.2 underneath; ../situations3/server.mjs, used by path) as two
#     replicas, replica B started under Debian's libfaketime 0.9.10 (`faketime -f -60s`: its wall clock runs 60 s
#     behind, as on a second host whose clock is off; monotonic clock not faked). The official clients, unmodified:
#     TS SDK 1.32.2 (../situations3/client.mjs) and Python SDK mcp 2.3.0 (../situations3/client.py, the sdks group's
#     venv). Application logic (situations3's): initialize, tools/list, ticker(8) (log notifications on the standalone
#     GET stream), after the 4th notification a marker file, 4 s idle, ticker(3), add(40,2), DELETE. At the marker the
#     replica that holds the GET stream (A: round-robin puts the GET there) is SIGKILLed, so the client's resume lands
#     on B, whose ids carry times 60 s earlier.
#  2. my-cool-proxy 1.6.2 (npm `@karashiiro/my-cool-proxy`, the gateways6 group's install ../gateways6/mcp-cool, used
#     by path; sessions and SSE events in SQLite `sessions.db` under HOME) as two replicas with one HOME (one SQLite
#     file), each its own config (port) and TMPDIR, upstream the Python SDK server (../py_server.py, mcp 2.3.0). Client
#     ../gateways6/cool_client.py --ready-file (Python SDK 2.3.0): tools/list, list-servers, list-server-tools,
#     tool-details x3, execute add, echo, then execute slow_count(40) (progress on the POST reply, ids `<ms>_<random>`);
#     1.5 s into it the replica holding the most front connections is SIGKILLed; the client's SDK resumes the POST
#     stream by GET + Last-Event-ID, which nginx sends to the other replica; then execute add, add, DELETE.
#  3. The Python SDK (mcp 2.3.0) MCPServer with an event store a user writes on one SQLite file, two uvicorn replicas
#     behind nginx active/passive, A killed during a call (py-failover).
# Ports 20030-20049 on 127.0.0.1:
#   skew-time-ts   nginx 20030 -> replicas 20031 (A) / 20032 (B, clock -60 s); TS client
#   skew-time-py   nginx 20033 -> 20034 / 20035 (B -60 s); Python client
#   skew-restart-ts  TS client -> one server on 20036; SIGKILL after the 4th tick and a new process started at once on
#                  the same store with its clock 60 s behind (a restart onto a host, or after a clock step, that is
#                  behind): the resumed GET continues on the restarted process
#   cool-roundrobin nginx 20040 (round-robin, situations3's nginx.conf.in) -> my-cool-proxy 20041 (A) / 20042 (B), one
#                  SQLite file; upstream Python SDK server 20043; both replicas on the true clock
#   cool-failover  nginx 20044 (active/passive: situations4/nginx.conf.in, B marked `backup`) -> my-cool-proxy 20045 (A)
#                  / 20046 (B), upstream 20047: the whole session on A until A is killed during slow_count(40); the
#                  client's resume and everything after it go to B
#   cool-failover-skew  the same, nginx 20048 -> 20049 (A) / 20038 (B, clock -60 s), upstream 20039
#   py-failover    nginx 20040 (active/passive) -> two Python SDK mcp 2.3.0 replicas 20041 (A) / 20042 (B) with a
#                  user-written event store on one SQLite file (situations4/py_replica.py); client
#                  ../gateways5/crash_client.py --ready-file (add, slow_count(40), add, add); A SIGKILLed 1.5 s into
#                  slow_count. (Ports 20040-20042 shared with cool-roundrobin: the scenarios run one after the other.)
#
#   sudo bash samples/gen/ecosystem/situations4.sh             # every scenario (about 2 minutes)
#   sudo bash samples/gen/ecosystem/situations4.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations4-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations4-<scenario>.pcap.txt
# (../replicas/wire.py `FRONT A B [UPSTREAM]`; the upstream of the cool-* captures is listed as "replica C"). Each
# process is bounded (timeout) and stopped after its scenario; a guard capture on every interface (lib.sh
# guard_start/guard_stop) checks that nothing left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss, nginx (`apt-get install -y nginx`; run as our own process with a private
# prefix), faketime (`apt-get install -y faketime`: faketime 0.9.10 + libfaketime), python3 with venv, node 20 + npm.
# First use makes (git-ignored) the sdks group's venv sdks/.venv, situations3/node_modules (`npm ci`) and
# gateways6/mcp-cool/node_modules (`npm ci`, better-sqlite3 built with node-gyp as gateways6.sh does). Results and
# labels: samples/ecosystem/situations4.md, samples/ecosystem/labels-situations4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/situations4"
S3="$ECO/situations3"
COOL="$ECO/gateways6/mcp-cool"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations4
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"
TS_CLIENT=(node "$S3/client.mjs")              # URL READY N MS K WAIT
PY_CLIENT=("$SDKPY" "$S3/client.py")           # URL READY N MS K WAIT
CLIENT_ARGS=(8 150 4 4)

setup() {
    setup_pysdk
    need_npm "$S3"
    need_npm "$COOL"
    local sq="$COOL/node_modules/better-sqlite3"
    if [ ! -f "$sq/build/Release/better_sqlite3.node" ]; then
        (cd "$sq" && node "$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js" rebuild --release \
            --nodedir="$(dirname "$(dirname "$(command -v node)")")")
    fi
}

U() { echo "http://$HOST:$1/mcp"; }
describe() { DESCRIBE=("$SDKPY" "$ECO/replicas/wire.py" "$@"); }
# clock SKEW: the command prefix that runs a program with its wall clock SKEW off ("0": none). libfaketime's relative
# offset keeps the clock running; the monotonic clock (timers) is left alone.
clock() { if [ "$1" = 0 ]; then echo env; else echo "env FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f $1"; fi; }

down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# srv NAME PORT STORE SKEW: one situations3 server process (ids `time`) with its clock SKEW off.
srv() { bg "$1" $(clock "$4") node "$S3/server.mjs" "$2" "$3" time; listening "$2"; }
await_ready() {
    local i
    for i in $(seq 1 $(($2 * 20))); do [ -f "$1" ] && return 0; sleep 0.05; done
    echo "   (no marker after $2 s: going on)"
}
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
nginx_up() {   # nginx_up NAME FRONT A B [CONF]: CONF default situations3's round-robin nginx.conf.in
    local d="$RUN/nginx-$1"
    rm -rf "$d"; mkdir -p "$d/tmp"
    sed -e "s/@FRONT@/$2/g" -e "s/@A@/$3/g" -e "s/@B@/$4/g" "${5:-$S3/nginx.conf.in}" >"$d/nginx.conf"
    bg "$1-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$2"
}
# busiest PA PB A B: the pid (of PA, PB) whose port (A, B) holds more established connections from nginx.
busiest() {
    local na nb
    na=$(ss -Htn state established "( sport = :$3 )" | wc -l); nb=$(ss -Htn state established "( sport = :$4 )" | wc -l)
    if [ "$nb" -gt "$na" ]; then echo "   $nb connections on $4, $na on $3: SIGKILL $4" >&2; echo "$2"
    else echo "   $na connections on $3, $nb on $4: SIGKILL $3" >&2; echo "$1"; fi
}

# replicas NAME FRONT A B SKEW-A SKEW-B CLIENT...: two situations3 servers sharing one store, nginx in front, the
# client; at its marker the busier replica (the GET stream's) is SIGKILLed, not restarted.
replicas() {
    local name=$1 front=$2 a=$3 b=$4 ska=$5 skb=$6; shift 6
    local store="$RUN/store-$name" ready="$RUN/$name.ready" cpid pa pb victim
    describe "$front" "$a" "$b"
    guard_start "$name"
    free "$front" "$a" "$b"
    rm -rf "$store" "$ready" "$RUN/$name"-*.log
    srv "$name-a" "$a" "$store" "$ska"; pa=$LAST_PID
    srv "$name-b" "$b" "$store" "$skb"; pb=$LAST_PID
    nginx_up "$name" "$front" "$a" "$b"
    sleep 0.5
    capture_start "$name" "$front" "$a" "$b"
    timeout 45 "$@" "$(U "$front")" "$ready" "${CLIENT_ARGS[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 4
    victim=$(busiest "$pa" "$pb" "$a" "$b")
    kill -KILL -- "-$victim" 2>/dev/null || true
    wait "$victim" 2>/dev/null || true
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}

# restart NAME PORT SKEW CLIENT...: one server, SIGKILL at the marker, a new process with its clock SKEW off.
restart() {
    local name=$1 port=$2 sk=$3; shift 3
    local store="$RUN/store-$name" ready="$RUN/$name.ready" cpid first
    describe - "$port"
    guard_start "$name"
    free "$port"
    rm -rf "$store" "$ready" "$RUN/$name"-*.log
    srv "$name-server" "$port" "$store" 0; first=$LAST_PID
    capture_start "$name" "$port"
    timeout 45 "$@" "$(U "$port")" "$ready" "${CLIENT_ARGS[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 10
    kill -KILL -- "-$first" 2>/dev/null || true
    wait "$first" 2>/dev/null || true
    free "$port"
    srv "$name-server2" "$port" "$store" "$sk"
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}

# cool NAME FRONT A B UP SKEW-A SKEW-B: two my-cool-proxy replicas (one HOME, so one sessions.db) behind nginx, the
# Python SDK server upstream; cool_client.py --ready-file; 1.5 s after its marker the busier replica is SIGKILLed.
cool_gw() {   # cool_gw NAME PORT UP SKEW HOME
    local dir="$RUN/$1"
    mkdir -p "$dir"
    printf '{"port": %s, "host": "%s", "transport": "http", "mcpClients": {"py": {"type": "http", "url": "http://%s:%s/mcp"}}}\n' \
        "$2" "$HOST" "$HOST" "$3" >"$dir/config.json"
    bg "$1" env -C "$dir" HOME="$5" TMPDIR="$dir" CONFIG_PATH="$dir/config.json" $(clock "$4") \
        node "$COOL/node_modules/@karashiiro/my-cool-proxy/bin/my-cool-proxy.mjs"
    listening "$2"
}
cool() {
    local name=$1 front=$2 a=$3 b=$4 up=$5 ska=$6 skb=$7 conf=${8:-}
    local home="$RUN/$name-home" ready="$RUN/$name.ready" cpid pa pb victim
    describe "$front" "$a" "$b" "$up"
    guard_start "$name"
    free "$front" "$a" "$b" "$up"
    rm -rf "$home" "$ready" "$RUN/$name"-*.log "$RUN/$name-a" "$RUN/$name-b"; mkdir -p "$home"
    bg "$name-up" "$SDKPY" "$ECO/py_server.py" "$up" --name "situations4-py-server-{port}"; listening "$up"
    sleep 1
    capture_start "$name" "$front" "$a" "$b" "$up"
    cool_gw "$name-a" "$a" "$up" "$ska" "$home"; pa=$LAST_PID
    cool_gw "$name-b" "$b" "$up" "$skb" "$home"; pb=$LAST_PID
    nginx_up "$name" "$front" "$a" "$b" $conf
    sleep 1
    timeout 60 "$SDKPY" "$ECO/gateways6/cool_client.py" "$(U "$front")" --ready-file "$ready" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 30
    sleep 1.5
    victim=$(busiest "$pa" "$pb" "$a" "$b")
    kill -KILL -- "-$victim" 2>/dev/null || true
    wait "$victim" 2>/dev/null || true
    wait "$cpid" || echo "   ($name client exited with $?)"
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    finish "$name"
}

# pyfailover NAME FRONT A B: two Python SDK replicas (situations4/py_replica.py, one SQLite event store) behind nginx
# active/passive; ../gateways5/crash_client.py --ready-file; 1.5 s after its marker (slow_count(40) running on A) A is
# SIGKILLed.
pyfailover() {
    local name=$1 front=$2 a=$3 b=$4
    local db="$RUN/$name-events.db" ready="$RUN/$name.ready" cpid pa
    describe "$front" "$a" "$b"
    guard_start "$name"
    free "$front" "$a" "$b"
    rm -f "$db"* "$ready" "$RUN/$name"-*.log
    bg "$name-a" "$SDKPY" "$W/py_replica.py" "$a" "$db"; pa=$LAST_PID; listening "$a"
    bg "$name-b" "$SDKPY" "$W/py_replica.py" "$b" "$db"; listening "$b"
    nginx_up "$name" "$front" "$a" "$b" "$W/nginx.conf.in"
    sleep 0.5
    capture_start "$name" "$front" "$a" "$b"
    timeout 60 "$SDKPY" "$ECO/gateways5/crash_client.py" "$(U "$front")" --ready-file "$ready" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    await_ready "$ready" 30
    sleep 1.5
    echo "   SIGKILL $a"
    kill -KILL -- "-$pa" 2>/dev/null || true
    wait "$pa" 2>/dev/null || true
    wait "$cpid" || echo "   ($name client exited with $?)"
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_skew-time-ts()    { replicas skew-time-ts 20030 20031 20032 0 -60s "${TS_CLIENT[@]}"; }
scenario_skew-time-py()    { replicas skew-time-py 20033 20034 20035 0 -60s "${PY_CLIENT[@]}"; }
scenario_skew-restart-ts() { restart skew-restart-ts 20036 -60s "${TS_CLIENT[@]}"; }
scenario_cool-roundrobin() { cool cool-roundrobin 20040 20041 20042 20043 0 0; }
scenario_cool-failover()   { cool cool-failover 20044 20045 20046 20047 0 0 "$W/nginx.conf.in"; }
scenario_cool-failover-skew() { cool cool-failover-skew 20048 20049 20038 20039 0 -60s "$W/nginx.conf.in"; }

scenario_py-failover()     { pyfailover py-failover 20040 20041 20042; }

ALL=(skew-time-ts skew-time-py skew-restart-ts cool-roundrobin cool-failover cool-failover-skew py-failover)
run_scenarios "tcpdump tshark ss nginx node npm python3 faketime" -- "$@"

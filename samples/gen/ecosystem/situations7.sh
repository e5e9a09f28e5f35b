#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations7": real implementations with their defaults (and the one or two settings
# users add) in the situations of MCP-DUPLICATE-RESPONSE: a proxy that retries a request upstream after a timeout, a
# client that resumes a request it already got an answer for. Every hop (client -> proxy -> server) in one capture.
# Servers: the official Python SDK (mcp 2.3.0, situations7/server.py: lookup(key), slow when its cache is cold or the
# replica degraded) and @karashiiro/mcp 0.7.0 on the TS SDK 1.32.2 (../situations3/server.mjs, a counter event store);
# client: the official Python SDK client (mcp 2.3.0, situations7/client.py). Proxies: HAProxy 2.6.12 and nginx 1.22.1
# (Debian 12 packages). Captured on loopback (127.0.0.1, ports 20550-20569):
#   haproxy-retry-json   client -> HAProxy :20550 (retry-on conn-failure response-timeout, timeout server 20 s) ->
#                        Python SDK server :20551 (json_response=True, first lookup 25 s): lookup(k1), lookup(k2)
#   haproxy-retry-sse    the same with the server's default SSE replies: client -> HAProxy :20552 -> server :20553
#   haproxy-retry-buffered  as haproxy-retry-json plus `option http-buffer-request`: client -> HAProxy :20562 ->
#                        JSON server :20563
#   nginx-retry-stateless client -> nginx :20554 (round robin, proxy_next_upstream error timeout non_idempotent,
#                        proxy_read_timeout 20 s) -> two stateless JSON Python SDK replicas, A :20555 (every lookup
#                        25 s, degraded) and B :20556: lookup(k1), lookup(k2), lookup(k3)
#   nginx-retry-iphash   client -> nginx :20557 (ip_hash, the same retry settings) -> two stateful JSON replicas
#                        :20558 and :20559 (first lookup 25 s): lookup(k1), lookup(k2)
#   resume-answered-py   client -> Python SDK server :20560 with an in-memory event store (first lookup 1 s):
#                        lookup(k1), lookup(k2), then the application resumes k1 with the resumption token it kept
#   resume-answered-ts   the same client (add) -> @karashiiro/mcp + TS SDK server :20561, counter event store
#   resume-answered-replicas  the same client (add), resuming the k2 call (the last) -> nginx :20564 (round robin, ../situations3/nginx.conf.in) -> two
#                        replicas of that server, A :20565 and B :20566, on one shared store directory, ids
#                        `<stream>_<ms>_<random>` (the library's own format)
# (ports 20568-20569 were used for trial runs outside any capture.)
#
#   sudo bash samples/gen/ecosystem/situations7.sh             # every scenario
#   sudo bash samples/gen/ecosystem/situations7.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations7-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations7-<scenario>
# .pcap.txt (../agents/wire.py - PORT...). Each client run is bounded (timeout); every process is stopped after its
# scenario; a guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), nginx, haproxy, node 20 + npm. First use makes the sdks group's
# venv sdks/.venv (mcp 2.3.0) and situations3/node_modules (`npm ci`). Nothing else is installed.
# Results and labels: samples/ecosystem/situations7.md, samples/ecosystem/labels-situations7.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/situations7"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations7
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

SDKPY="$ECO/sdks/.venv/bin/python"
PY_SERVER=("$SDKPY" "$W/server.py")                    # PORT NAME [options]
TS_SERVER=(node "$ECO/situations3/server.mjs")         # PORT STORE-DIR counter|time
CLIENT=("$SDKPY" "$W/client.py")                       # URL calls N | URL resume [TOOL [KEY]]

setup() {
    setup_pysdk
    need_npm "$ECO/situations3"
}
U() { echo "http://$HOST:$1/mcp"; }

down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# begin NAME PORT...: guard on, ports free, old logs gone, DESCRIBE set for these ports.
begin() {
    local name=$1; shift
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$@")
    guard_start "$name"
    free "$@"
    rm -f "$RUN/$name"-*.log
}
# finish NAME: capture stop and listing, everything down, guard off, the logs' tails shown.
finish() {
    local name=$1 f
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
pyserver() { local name=$1 port=$2; shift 2; bg "$name-server-$port" "${PY_SERVER[@]}" "$port" "$name-$port" "$@"; listening "$port"; }
haproxy_up() {
    local name=$1 front=$2 back=$3 buffer=$4 d="$RUN/haproxy-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s/@FRONT@/$front/g" -e "s/@BACK@/$back/g" -e "s/@TSERVER@/20000/g" -e "s/^@BUFFER@$/$buffer/" \
        "$W/haproxy.cfg.in" >"$d/haproxy.cfg"
    bg "$name-haproxy" haproxy -db -f "$d/haproxy.cfg"
    listening "$front"
}
nginx_up() {
    local name=$1 front=$2 a=$3 b=$4 balance=$5 d="$RUN/nginx-$1"
    rm -rf "$d"; mkdir -p "$d/tmp"
    sed -e "s/@FRONT@/$front/g" -e "s/@A@/$a/g" -e "s/@B@/$b/g" -e "s/@TREAD@/20s/g" -e "s/@BALANCE@/$balance/g" \
        "$W/nginx.conf.in" >"$d/nginx.conf"
    bg "$name-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$front"
}
client() { local name=$1; shift; timeout 60 "${CLIENT[@]}" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"; }

# --------------------------------------------------------------------------------------------- scenarios
haproxy_retry() {
    local name=$1 front=$2 back=$3 buffer=$4; shift 4
    begin "$name" "$front" "$back"
    pyserver "$name" "$back" --cold 25 "$@"
    haproxy_up "$name" "$front" "$back" "$buffer"
    capture_start "$name" "$front" "$back"
    client "$name" "$(U "$front")" calls 2
    sleep 6   # the first lookup's own answer (25 s after it started) comes after the client is done
    finish "$name"
}
scenario_haproxy-retry-json() { haproxy_retry haproxy-retry-json 20550 20551 "" --json; }
scenario_haproxy-retry-sse() { haproxy_retry haproxy-retry-sse 20552 20553 ""; }
scenario_haproxy-retry-buffered() { haproxy_retry haproxy-retry-buffered 20562 20563 "	option http-buffer-request" --json; }

scenario_nginx-retry-stateless() {
    local name=nginx-retry-stateless
    begin "$name" 20554 20555 20556
    pyserver "$name" 20555 --json --stateless --delay 25
    pyserver "$name" 20556 --json --stateless
    nginx_up "$name" 20554 20555 20556 ""
    capture_start "$name" 20554 20555 20556
    client "$name" "$(U 20554)" calls 3
    sleep 6
    finish "$name"
}
scenario_nginx-retry-iphash() {
    local name=nginx-retry-iphash
    begin "$name" 20557 20558 20559
    pyserver "$name" 20558 --json --cold 25
    pyserver "$name" 20559 --json --cold 25
    nginx_up "$name" 20557 20558 20559 "ip_hash;"
    capture_start "$name" 20557 20558 20559
    client "$name" "$(U 20557)" calls 2
    sleep 6
    finish "$name"
}
scenario_resume-answered-py() {
    local name=resume-answered-py
    begin "$name" 20560
    pyserver "$name" 20560 --event-store --cold 1
    capture_start "$name" 20560
    client "$name" "$(U 20560)" resume
    finish "$name"
}
scenario_resume-answered-ts() {
    local name=resume-answered-ts
    begin "$name" 20561
    rm -rf "$RUN/store-$name"
    bg "$name-server" "${TS_SERVER[@]}" 20561 "$RUN/store-$name" counter
    listening 20561
    capture_start "$name" 20561
    client "$name" "$(U 20561)" resume add
    finish "$name"
}

scenario_resume-answered-replicas() {
    local name=resume-answered-replicas d="$RUN/nginx-resume-answered-replicas"
    begin "$name" 20564 20565 20566
    rm -rf "$RUN/store-$name" "$d"; mkdir -p "$d/tmp"
    bg "$name-server-a" "${TS_SERVER[@]}" 20565 "$RUN/store-$name" time
    bg "$name-server-b" "${TS_SERVER[@]}" 20566 "$RUN/store-$name" time
    listening 20565; listening 20566
    sed -e "s/@FRONT@/20564/g" -e "s/@A@/20565/g" -e "s/@B@/20566/g" "$ECO/situations3/nginx.conf.in" >"$d/nginx.conf"
    bg "$name-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening 20564
    capture_start "$name" 20564 20565 20566
    client "$name" "$(U 20564)" resume add k2
    finish "$name"
}

ALL=(haproxy-retry-json haproxy-retry-sse haproxy-retry-buffered nginx-retry-stateless nginx-retry-iphash resume-answered-py
     resume-answered-ts resume-answered-replicas)

run_scenarios "tcpdump tshark ss node nginx haproxy" -- "$@"

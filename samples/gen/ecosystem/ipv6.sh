#!/usr/bin/env bash
# mcptap ecosystem corpus, group "ipv6": MCP over IPv6 loopback and dual stack as users meet it. Real implementations
# with their defaults plus the settings users set: the official Python SDK (mcp 2.3.0: ipv6/server.py under uvicorn
# 0.54.0, ipv6/client.py), the official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, ipv6/client.mjs, on
# Node 20's fetch with its happy-eyeballs default), nginx 1.22.1 (Debian 12, nginx-light) and supergateway 4.0.0 (npm)
# serving a TS SDK stdio server (ipv6/stdio_server.mjs) over HTTP+SSE. Ports 20630-20649:
#   localhost-ts     Python SDK server bound to 127.0.0.1:20630 (the SDK's default host); TS client to
#                    http://localhost:20630/mcp (localhost is ::1 first, then 127.0.0.1)
#   localhost-py     the same server on 127.0.0.1:20631; Python SDK client to http://localhost:20631/mcp
#   dualstack        Python SDK server, uvicorn --host :: (and host="::" for the SDK), port 20632; Python client to
#                    http://[::1]:20632/mcp, then TS client to http://127.0.0.1:20632/mcp, then TS client to
#                    http://localhost:20632/mcp: three sessions on one listener, two address families
#   nginx-v6-to-v4   nginx `listen [::1]:20634` -> proxy_pass http://127.0.0.1:20635 (Python SDK server, 127.0.0.1);
#                    TS client to http://[::1]:20634/mcp, then Python client to http://localhost:20634/mcp
#   ts-server-dualstack  the TS SDK server (ipv6/ts_server.mjs: createMcpExpressApp() and `app.listen(20638)`, as the
#                    SDK's README has it: Node listens on :: for both families); TS client to
#                    http://127.0.0.1:20638/mcp, Python client to http://[::1]:20638/mcp, TS client to
#                    http://localhost:20638/mcp
#   ts-server-restart  that TS SDK server on port 20640, restarted (SIGINT, a new process) 2 s into a session of the
#                    TS client to http://localhost:20640/mcp, which waits 4 s between add and echo, then terminates
#                    its session (DELETE) and closes
#   legacy-sse-v6    supergateway --stdio "node stdio_server.mjs" --port 20636 --baseUrl http://[::1]:20636 (HTTP+SSE
#                    2024-11-05, supergateway binds every address); TS client SSEClientTransport to http://[::1]:20636/sse
#
#   sudo bash samples/gen/ecosystem/ipv6.sh             # every scenario
#   sudo bash samples/gen/ecosystem/ipv6.sh SCENARIO..  # some of them
#
# Everything runs inside a network namespace this script makes (mcptap-ipv6, only its own loopback up) and deletes
# at the end, whose /etc/hosts (ip netns exec's /etc/netns/mcptap-ipv6/hosts, also removed at the end) is Debian's
# default: `127.0.0.1 localhost` and `::1 localhost ip6-localhost ip6-loopback`, so that `localhost` resolves to
# both families as on a stock desktop or server (a container's /etc/hosts often has 127.0.0.1 only).
# Captures samples/ecosystem/ipv6-<scenario>.pcap (tcpdump -i lo on the scenario's ports, both families), listings
# samples/gen/wire/ecosystem/ipv6-<scenario>.pcap.txt (ipv6/wire.py: ../agents/wire.py plus a table of every TCP
# connection with its family and addresses). Each client run is bounded
# (timeout); every process is stopped after its scenario; a guard capture on every interface of the namespace
# (lib.sh guard_start/guard_stop) records whatever else was sent.
#
# Needs root (netns, tcpdump), iproute2, tcpdump, tshark, nginx, node 20 + npm, python3 (venv). First use makes
# ipv6/.venv (ipv6/requirements.txt) and ipv6/node_modules (`npm ci`). Results and labels: samples/ecosystem/ipv6.md,
# samples/ecosystem/labels-ipv6.tsv.
set -euo pipefail

NS=mcptap-ipv6
if [ -z "${IPV6_IN_NS:-}" ]; then
    ip netns del "$NS" 2>/dev/null || true
    ip netns add "$NS"
    ip -n "$NS" link set lo up
    mkdir -p "/etc/netns/$NS"
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"/etc/netns/$NS/hosts"
    rc=0
    ip netns exec "$NS" env IPV6_IN_NS=1 bash "${BASH_SOURCE[0]}" "$@" || rc=$?
    ip netns del "$NS"
    rm -rf "/etc/netns/$NS"; rmdir /etc/netns 2>/dev/null || true
    exit "$rc"
fi

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/ipv6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=ipv6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

PY="$W/.venv/bin/python"
SERVER=("$PY" "$W/server.py")            # PORT NAME BIND
PYCLIENT=("$PY" "$W/client.py")          # URL
TSCLIENT=(node "$W/client.mjs")          # streamable|sse URL
SG="$W/node_modules/.bin/supergateway"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}
# listening/free as lib.sh's, but for a listener on any address of either family (the socket table, never a probe).
listening() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ss -Hltn "sport = :$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}
free() {
    local p i
    for p in "$@"; do
        for i in $(seq 1 150); do [ -z "$(ss -Hltn "sport = :$p")" ] && break; sleep 0.1; done
        [ -z "$(ss -Hltn "sport = :$p")" ] || echo "something still listens on port $p" >&2
    done
}
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# begin NAME FRONT|- PORT...: guard on, ports free, old logs gone, DESCRIBE set (FRONT: the proxy's port, or -).
begin() {
    local name=$1 front=$2; shift 2
    DESCRIBE=("$PY" "$W/wire.py" "$front" "$@")
    [ "$front" = - ] || set -- "$front" "$@"
    guard_start "$name"
    free "$@"
    rm -f "$RUN/$name"-*.log
}
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
pyserver() { local name=$1 port=$2 bind=$3; bg "$name-server-$port" "${SERVER[@]}" "$port" "$name-$port" "$bind"; listening "$port"; }
# pyclient/tsclient NAME TAG ARGS...: one bounded client run, logged to RUN/NAME-TAG.log.
pyclient() { local name=$1 tag=$2; shift 2; timeout 60 "${PYCLIENT[@]}" "$@" >"$RUN/$name-$tag.log" 2>&1 || echo "   ($name $tag exited with $?)"; }
tsclient() { local name=$1 tag=$2; shift 2; timeout 60 "${TSCLIENT[@]}" "$@" >"$RUN/$name-$tag.log" 2>&1 || echo "   ($name $tag exited with $?)"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_localhost-ts() {
    local name=localhost-ts
    begin "$name" - 20630
    pyserver "$name" 20630 127.0.0.1
    capture_start "$name" 20630
    tsclient "$name" client streamable http://localhost:20630/mcp
    finish "$name"
}
scenario_localhost-py() {
    local name=localhost-py
    begin "$name" - 20631
    pyserver "$name" 20631 127.0.0.1
    capture_start "$name" 20631
    pyclient "$name" client http://localhost:20631/mcp
    finish "$name"
}
scenario_dualstack() {
    local name=dualstack
    begin "$name" - 20632
    pyserver "$name" 20632 ::
    capture_start "$name" 20632
    pyclient "$name" client1-py "http://[::1]:20632/mcp"
    sleep 1
    tsclient "$name" client2-ts streamable http://127.0.0.1:20632/mcp
    sleep 1
    tsclient "$name" client3-ts streamable http://localhost:20632/mcp
    finish "$name"
}
scenario_nginx-v6-to-v4() {
    local name=nginx-v6-to-v4 d="$RUN/nginx-v6-to-v4"
    begin "$name" 20634 20635
    pyserver "$name" 20635 127.0.0.1
    rm -rf "$d"; mkdir -p "$d/tmp"
    sed -e "s|@DIR@|$d|g" -e "s/@FRONT@/20634/g" -e "s/@BACK@/20635/g" "$W/nginx.conf.in" >"$d/nginx.conf"
    bg "$name-nginx" nginx -p "$d" -c "$d/nginx.conf" -e stderr
    listening 20634
    capture_start "$name" 20634 20635
    tsclient "$name" client1-ts streamable "http://[::1]:20634/mcp"
    sleep 1
    pyclient "$name" client2-py http://localhost:20634/mcp
    finish "$name"
}
scenario_ts-server-dualstack() {
    local name=ts-server-dualstack
    begin "$name" - 20638
    bg "$name-server" node "$W/ts_server.mjs" 20638
    listening 20638
    capture_start "$name" 20638
    tsclient "$name" client1-ts streamable http://127.0.0.1:20638/mcp
    sleep 1
    pyclient "$name" client2-py "http://[::1]:20638/mcp"
    sleep 1
    tsclient "$name" client3-ts streamable http://localhost:20638/mcp
    finish "$name"
}
scenario_ts-server-restart() {
    local name=ts-server-restart
    begin "$name" - 20640
    bg "$name-server1" node "$W/ts_server.mjs" 20640
    local first=$LAST_PID
    listening 20640
    capture_start "$name" 20640
    tsclient "$name" client pause http://localhost:20640/mcp &
    local cpid=$!
    sleep 2
    stop "$first" INT; free 20640           # a redeploy: the process ends, a new one takes the port
    bg "$name-server2" node "$W/ts_server.mjs" 20640
    listening 20640
    wait "$cpid" || true
    finish "$name"
}
scenario_legacy-sse-v6() {
    local name=legacy-sse-v6
    begin "$name" - 20636
    bg "$name-supergateway" "$SG" --stdio "node $W/stdio_server.mjs" --port 20636 --baseUrl "http://[::1]:20636" \
        --ssePath /sse --messagePath /message
    listening 20636
    capture_start "$name" 20636
    tsclient "$name" client sse "http://[::1]:20636/sse"
    finish "$name"
}

ALL=(localhost-ts localhost-py dualstack nginx-v6-to-v4 ts-server-dualstack ts-server-restart legacy-sse-v6)

run_scenarios "tcpdump tshark ss node nginx" -- "$@"

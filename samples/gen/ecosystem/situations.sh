#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations": real, unmodified MCP implementations with their own defaults put into
# the production situations some rules describe (a tool call that hangs past the client's timeout, an idle session
# stream behind nginx's default proxy_read_timeout, an upstream killed and restarted behind nginx while the
# application keeps calling, a stdio host's mcp-remote meeting an HTTP+SSE-only server). Our code is only the
# harness: start, stop, kill, a `sleep` tool that really sleeps, nginx's documented reverse-proxy snippet.
# Captured on loopback (127.0.0.1, ports 19730-19749):
#   stall-ts    port 19730: TS SDK 1.32.2 client (situations/ts_client.mjs stall 75) -> TS SDK 1.32.2 server
#               (situations/ts-server.mjs): tools/call sleep(75) with the client's default request timeout (60 s)
#   stall-py    port 19731: Python SDK 2.3.0 client (situations/py_client.py, `Client(URL)` defaults) -> Python SDK
#               server (situations/py_server.py): tools/call sleep(120); the run is ended by `timeout 80`
#   idle-old    ports 19732 (nginx) -> 19733: TS SDK 1.11.5 server (../oldsdks/ts110/server.mjs, no keep-alives, no
#               X-Accel-Buffering) behind nginx defaults (proxy_read_timeout 60 s); TS SDK 1.32.2 client idles 75 s
#   idle-ts     ports 19734 -> 19735: the same with the TS SDK 1.32.2 server (situations/ts-server.mjs)
#   idle-py     ports 19736 -> 19737: the same with the Python SDK 2.3.0 server (situations/py_server.py)
#   cascade     ports 19738 -> 19739: TS SDK 1.32.2 server behind nginx; the TS client calls add once a second 25
#               times; 5 s after the client starts the server is killed (SIGKILL), 8 s later started again
#   buffered    ports 19743 -> 19744: TS SDK 1.11.5 server behind nginx defaults (proxy_buffering on); the TS client
#               calls slow_count(60) with a progressToken (60 notifications/progress 0.1 s apart), add(40,2)
#   fallback-ts port 19745: mcp-remote 0.15.1 as in `fallback` -> the TS SDK 1.32.2 HTTP+SSE server
#               (situations/ts-legacy-server.mjs, the README's deprecated pattern), URL /sse
#   everything-restart ports 19746 (nginx) -> 19747: @modelcontextprotocol/server-everything 2026.8.31
#               (`streamableHttp`, its own in-memory event store) behind nginx; the TS client turns on the server's
#               simulated logging (a notifications/message every 5 s on the GET stream) and calls get-sum once a
#               second 14 times; 6.5 s after it starts nginx is restarted (SIGTERM: nginx's fast shutdown, then
#               the same command again), as an operator restarts the proxy
#   fallback    port 19740 (19749: mcp-remote's OAuth callback port, never opened: no auth here): mcp-remote
#               0.15.1 (defaults: http-first) driven over stdio by the TS SDK client
#               (situations/mcp_remote_client.mjs) -> the Python SDK's HTTP+SSE app (../py_server.py --sse), URL /sse
#
#   sudo bash samples/gen/ecosystem/situations.sh             # every scenario (about 8 minutes)
#   sudo bash samples/gen/ecosystem/situations.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations-<scenario>.pcap.txt
# (../nonmcp3/wire.py PORT for one hop, ../proxies2/wire.py FRONT BACK for two). Each process is bounded (timeout) and
# stopped after its scenario; a guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing
# left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), nginx (Debian 12: `apt-get install -y nginx`; run as our own
# process with a private prefix, the system service untouched), python3 with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0), situations/node_modules (`npm ci`: TS SDK 1.32.2, express, zod,
# mcp-remote) and ../oldsdks/ts110/node_modules (`npm ci`: TS SDK 1.11.5). All git-ignored. Results and labels:
# samples/ecosystem/situations.md, samples/ecosystem/labels-situations.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/situations"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 MCP_REMOTE_CONFIG_DIR="$RUN/mcp-auth"

SDKPY="$ECO/sdks/.venv/bin/python"
TS_SERVER=(node "$W/ts-server.mjs")                     # PORT
OLD_SERVER=(node "$ECO/oldsdks/ts110/server.mjs")       # PORT (TS SDK 1.11.5)
PY_SERVER=("$SDKPY" "$W/py_server.py")                  # PORT
PY_SERVER_SSE=("$SDKPY" "$ECO/py_server.py" --name situations-legacy-{port} --sse)  # PORT (the HTTP+SSE app)
TS_LEGACY=(node "$W/ts-legacy-server.mjs")              # PORT
EVERYTHING=(node "$W/node_modules/@modelcontextprotocol/server-everything/dist/index.js" streamableHttp)  # env PORT
TS_CLIENT=(node "$W/ts_client.mjs")                     # URL MODE ARG
PY_CLIENT=("$SDKPY" "$W/py_client.py")                  # URL SECONDS

setup() {
    setup_pysdk
    need_npm "$W"
    need_npm "$ECO/oldsdks/ts110"
}

# listening_any PORT: as lib.sh's listening, for a server bound to every address (server-everything), not 127.0.0.1.
listening_any() {
    local i
    for i in $(seq 1 300); do [ -n "$(ss -Hltn "sport = :$1")" ] && return 0; sleep 0.1; done
    echo "nothing listens on port $1" >&2; return 1
}
U() { echo "http://$HOST:$1$2"; }
one_hop() { DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$1"); }
two_hops() { DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$1" "$2"); }

# down: SIGINT to each process group started by bg, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# nginx_up NAME FRONT BACK: nginx.conf.in for these ports under run/nginx-NAME, nginx in the foreground (bg).
nginx_up() {
    local d="$RUN/nginx-$1"
    rm -rf "$d"; mkdir -p "$d/tmp"
    sed -e "s/@FRONT@/$2/g" -e "s/@BACK@/$3/g" "$W/nginx.conf.in" >"$d/nginx.conf"
    bg "$1-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$2"
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
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
# direct NAME PORT SECONDS SERVER-CMD... -- CLIENT-CMD...: one server on PORT, one client run bounded by SECONDS.
direct() {
    local name=$1 port=$2 secs=$3; shift 3
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    one_hop "$port"
    guard_start "$name"
    free "$port"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "${srv[@]}" "$port"
    listening "$port"
    sleep 1
    capture_start "$name" "$port"
    timeout "$secs" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    finish "$name"
}
# proxied NAME FRONT BACK SECONDS SERVER-CMD... -- CLIENT-CMD...: the server on BACK behind nginx on FRONT.
proxied() {
    local name=$1 front=$2 back=$3 secs=$4; shift 4
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    two_hops "$front" "$back"
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "${srv[@]}" "$back"
    listening "$back"
    nginx_up "$name" "$front" "$back"
    sleep 1
    capture_start "$name" "$front" "$back"
    timeout "$secs" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_stall-ts() { direct stall-ts 19730 90 "${TS_SERVER[@]}" -- "${TS_CLIENT[@]}" "$(U 19730 /mcp)" stall 75; }
scenario_stall-py() { direct stall-py 19731 80 "${PY_SERVER[@]}" -- "${PY_CLIENT[@]}" "$(U 19731 /mcp)" 120; }
scenario_idle-old() { proxied idle-old 19732 19733 90 "${OLD_SERVER[@]}" -- "${TS_CLIENT[@]}" "$(U 19732 /mcp)" idle 75; }
scenario_idle-ts() { proxied idle-ts 19734 19735 90 "${TS_SERVER[@]}" -- "${TS_CLIENT[@]}" "$(U 19734 /mcp)" idle 75; }
scenario_idle-py() { proxied idle-py 19736 19737 90 "${PY_SERVER[@]}" -- "${TS_CLIENT[@]}" "$(U 19736 /mcp)" idle 75; }
scenario_fallback() {
    direct fallback 19740 45 "${PY_SERVER_SSE[@]}" -- node "$W/mcp_remote_client.mjs" "$(U 19740 /sse)" 19749
}
scenario_buffered() { proxied buffered 19743 19744 40 "${OLD_SERVER[@]}" -- "${TS_CLIENT[@]}" "$(U 19743 /mcp)" slow 60; }
scenario_fallback-ts() {
    direct fallback-ts 19745 45 "${TS_LEGACY[@]}" -- node "$W/mcp_remote_client.mjs" "$(U 19745 /sse)" 19749
}
# everything-restart: server-everything (it takes its port from PORT and listens on every address; only loopback is
# used and captured) behind nginx; the client in the background; 6.5 s after it starts nginx gets SIGTERM (fast
# shutdown: it closes every connection), its port is seen free, and the same nginx command runs again.
scenario_everything-restart() {
    local name=everything-restart front=19746 back=19747 cpid ngx
    two_hops "$front" "$back"
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" env PORT=$back "${EVERYTHING[@]}"
    listening_any "$back"
    nginx_up "$name" "$front" "$back"; ngx=$LAST_PID
    sleep 1
    capture_start "$name" "$front" "$back"
    timeout 60 "${TS_CLIENT[@]}" "$(U $front /mcp)" everything 14 >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 6.5
    stop "$ngx" TERM
    free "$front"
    bg "$name-nginx" nginx -p "$RUN/nginx-$name" -c nginx.conf -e stderr
    listening "$front"
    echo "   nginx restarted"
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}
# cascade: as proxied, but the client runs in the background; 5 s after it starts the server is killed (SIGKILL to
# its process group), 8 s later the same command is started again on the same port.
scenario_cascade() {
    local name=cascade front=19738 back=19739 cpid srv
    two_hops "$front" "$back"
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "${TS_SERVER[@]}" "$back"; srv=$LAST_PID
    listening "$back"
    nginx_up "$name" "$front" "$back"
    sleep 1
    capture_start "$name" "$front" "$back"
    timeout 60 "${TS_CLIENT[@]}" "$(U $front /mcp)" retry 25 >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 5
    stop "$srv" KILL
    echo "   server killed; 8 s down"
    sleep 8
    bg "$name-server" "${TS_SERVER[@]}" "$back"
    listening "$back"
    echo "   server up again"
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}

ALL=(stall-ts stall-py idle-old idle-ts idle-py cascade buffered fallback fallback-ts everything-restart)
run_scenarios "tcpdump tshark ss nginx node npm python3" -- "$@"

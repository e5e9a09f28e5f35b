#!/usr/bin/env bash
# mcptap ecosystem corpus, group "load": real MCP traffic of the official SDKs under concurrency: many requests of one
# session in flight at once (their replies interleaving over the clients' pooled connections), many sessions at once
# on one server, an nginx upstream keepalive pool whose connections carry the requests of several sessions in turn,
# and sessions that expire while their client idles. Nothing is tuned for the analyzer: every SDK runs with its own
# defaults, nginx with the usual MCP/SSE snippet. Plain HTTP/1.1, captured on loopback (127.0.0.1, ports 18970-18999
# only), both hops in one capture where nginx is used (client <-> nginx, nginx <-> server).
#
#   sudo bash samples/gen/ecosystem/load.sh             # every scenario
#   sudo bash samples/gen/ecosystem/load.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/load-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   py-parallel       Python SDK server on 18970; Python SDK client, one session: tools/list, then nine tools/call at
#                     once in one anyio task group (add x4, slow_count(3) with a progress token, echo x4)
#   ts-parallel       TS SDK server (SSE replies, its default) on 18971; TS SDK client, one session: the same nine
#                     calls in one Promise.all
#   ts-json-parallel  the same against the TS SDK server with `enableJsonResponse: true` on 18972
#   many-clients      Python SDK server on 18973; six clients started together (3 Python, 3 TS), each its own
#                     session: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a progress
#                     token, add(40,2), 0.1 s apart, close
#   nginx-keepalive   nginx (load/nginx/nginx-keepalive.conf: `upstream { server ...; keepalive 8; }`, HTTP/1.1 to the
#                     upstream, `Connection ""`, no buffering) on 18974 -> one Python SDK server on 18975; four
#                     clients started together (2 Python, 2 TS), the many-clients run each
#   session-expiry    sessions that expire while their client idles: (1) the Python SDK server with its own
#                     `session_idle_timeout=2` on 18976, Python client; (2) the TS SDK server on 18977 whose sessions
#                     an application timer closes after 2 s without a request (load/ts-server.mjs idle-ms 2000: the
#                     TS SDK 1.x has no such option), TS client, then (3) a Python client against that same server;
#                     one after the other, each: initialize, tools/list, add(1,2), 4 s idle (session and GET stream
#                     left open), add(40,2), echo("again"), close
#
# Servers: the Python SDK (mcp 2.3.0) app of the other groups (../pysdk_tools.py build_server as `streamable_http_app`:
# stateful, SSE replies, no event store) under uvicorn (load/load_py.py server), and the TS SDK 1.32.2 server on express
# with the SDK README's stateful pattern (load/ts-server.mjs on ../ts_common.mjs `routeSessions`). Clients: the Python
# SDK client (load_py.py client: mode="legacy", its default httpx2 client and pool) and the TS SDK client
# (load/client.mjs: StreamableHTTPClientTransport defaults, Node's fetch and its pool). Neither retries a request nor
# re-initializes beyond what its SDK does by itself: when the SDK raises, the run logs it and goes on or ends.
# Every loop here has a fixed count and every wait a timeout; the whole run takes about a minute.
#
# Needs root (tcpdump), tcpdump, tshark (../replicas/wire.py, the replicas group's listing),
# python3 with venv, node 20 + npm, and Debian's nginx (`apt-get install -y nginx`). nginx runs as a non-daemon process
# of our own with its config under load/nginx/ and pid/log/temp paths under load/run/; the system service and /etc are
# left alone. First use makes load/.venv (load/requirements.txt) and load/node_modules (`npm ci`). All git-ignored
# (load/.gitignore). Results and labels: samples/ecosystem/load.md, samples/ecosystem/labels-load.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/load"                                           # harness code, configs, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the nginx prefix
VPY="$W/.venv/bin/python"
GROUP=load
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

# describe PORT... / describe_front FRONT PORT...: the listing command (replicas/wire.py) for a capture of servers without /
# with a proxy in front.
describe() { DESCRIBE=("$VPY" "$ECO/replicas/wire.py" - "$@"); }
describe_front() { DESCRIBE=("$VPY" "$ECO/replicas/wire.py" "$@"); }

# mcp_server KIND(py|ts) NAME PORT [ARGS...]: the server, up before the capture starts; pid in LAST_PID.
mcp_server() {
    local kind=$1 name=$2 port=$3; shift 3
    if [ "$kind" = py ]; then
        server "$name" "$port" "$VPY" "$W/load_py.py" server --port "$port" "$@"
    else
        server "$name" "$port" node "$W/ts-server.mjs" "$port" "$@"
    fi
}

# client_cmd KIND(py|ts) URL WHAT [ARG]: the command line of one client run (load_py.py client / client.mjs).
client_cmd() {
    local kind=$1 url=$2 what=$3 arg=${4:-}
    if [ "$kind" = py ]; then
        CMD=("$VPY" "$W/load_py.py" client "$what" --url "$url")
        [ "$what" = expiry ] && CMD+=(--idle "$arg")
    else
        CMD=(node "$W/client.mjs" "$url" "$what")
        [ -n "$arg" ] && CMD+=("$arg")
    fi
    return 0
}

# client NAME KIND URL WHAT [ARG]: one bounded client run (timeout 60), output in run/NAME.log and shown indented.
client() {
    local name=$1; shift
    client_cmd "$@"
    run "$name" "${CMD[@]}"
}

# together NAME URL KIND...: one client per KIND (py|ts), all started at once, each running the "session" sequence
# (timeout 60 each), waited for; their logs run/NAME-<i>-<kind>.log shown indented. Each client loads its SDK, then
# waits for a common start time 3 s ahead (LOAD_START_AT, ms since the epoch): Python takes about 1 s to import the
# SDK, Node 0.1 s, so without it the TS sessions would be over before the Python ones began.
together() {
    local name=$1 url=$2 i=0 kind pids=() rc start
    shift 2
    start=$(($(date +%s%3N) + 3000))
    for kind in "$@"; do
        i=$((i + 1))
        client_cmd "$kind" "$url" session "$i"
        LOAD_START_AT=$start timeout 60 "${CMD[@]}" >"$RUN/$name-$i-$kind.log" 2>&1 &
        pids+=("$!")
    done
    i=0
    for kind in "$@"; do
        rc=0; wait "${pids[$i]}" || rc=$?
        i=$((i + 1))
        grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-$i-$kind.log" | cut -c1-150 | tail -12 \
            | sed "s/^/   $name-$i-$kind: /" || true
        [ "$rc" -eq 0 ] || echo "   ($name-$i-$kind exited with $rc)"
    done
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_py-parallel() {
    local port=18970
    free "$port"; describe "$port"
    capture_run py-parallel "$port" "$VPY" "$W/load_py.py" server --port "$port" -- \
        "$VPY" "$W/load_py.py" client parallel --url "http://$HOST:$port/mcp"
}

scenario_ts-parallel() {
    local port=18971
    free "$port"; describe "$port"
    capture_run ts-parallel "$port" node "$W/ts-server.mjs" "$port" -- \
        node "$W/client.mjs" "http://$HOST:$port/mcp" parallel
}

scenario_ts-json-parallel() {
    local port=18972
    free "$port"; describe "$port"
    capture_run ts-json-parallel "$port" node "$W/ts-server.mjs" "$port" json -- \
        node "$W/client.mjs" "http://$HOST:$port/mcp" parallel
}

scenario_many-clients() {
    local port=18973
    free "$port"; describe "$port"
    mcp_server py many-clients-server "$port"
    capture_start many-clients "$port"
    together many-clients "http://$HOST:$port/mcp" py ts py ts py ts
    capture_stop many-clients
    cleanup
}

scenario_nginx-keepalive() {
    local front=18974 back=18975 prefix="$RUN/nginx-nginx-keepalive"
    free "$front" "$back"; describe_front "$front" "$back"
    mcp_server py nginx-keepalive-server "$back"
    rm -rf "$prefix"; mkdir -p "$prefix/tmp"; chmod -R 777 "$prefix"   # nginx's workers run as nobody
    server nginx-keepalive-nginx "$front" nginx -p "$prefix" -c "$W/nginx/nginx-keepalive.conf" -e stderr
    capture_start nginx-keepalive "$front" "$back"
    together nginx-keepalive "http://$HOST:$front/mcp" py ts py ts
    capture_stop nginx-keepalive
    sed "s/^/   nginx: /" "$prefix/access.log" || true
    cleanup
}

scenario_session-expiry() {
    local py=18976 ts=18977
    free "$py" "$ts"; describe "$py" "$ts"
    mcp_server py session-expiry-py-server "$py" --idle-timeout 2
    mcp_server ts session-expiry-ts-server "$ts" idle-ms 2000
    capture_start session-expiry "$py" "$ts"
    client session-expiry-1-py py "http://$HOST:$py/mcp" expiry 4
    client session-expiry-2-ts ts "http://$HOST:$ts/mcp" expiry 4000
    client session-expiry-3-py py "http://$HOST:$ts/mcp" expiry 4
    capture_stop session-expiry
    grep -E 'session|idle|Terminating' "$RUN/session-expiry-py-server.log" "$RUN/session-expiry-ts-server.log" \
        | cut -c1-150 | sed "s/^/   /" || true
    cleanup
}

ALL=(py-parallel ts-parallel ts-json-parallel many-clients nginx-keepalive session-expiry)

run_scenarios "tcpdump tshark node npm nginx" -- "$@"

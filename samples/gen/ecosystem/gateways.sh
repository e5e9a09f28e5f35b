#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways": real MCP traffic through gateways, bridges and reverse proxies in
# front of the official Python SDK server (mcp 2.3.0), captured on loopback (ports 18300-18399 only).
#
#   sudo bash samples/gen/ecosystem/gateways.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/gateways-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mcp-proxy              mcp-proxy (PyPI) exposing a stdio server over Streamable HTTP (/mcp/) and SSE (/sse)
#   supergateway-sse       supergateway (npm) stdio -> SSE, two SDK clients at once
#   supergateway-stateless supergateway stdio -> Streamable HTTP, stateless (a child process per request)
#   mcp-remote-streamable  SDK stdio client -> mcp-remote (npm) -> stateful Streamable HTTP server
#   mcp-remote-legacy      SDK stdio client -> mcp-remote -> legacy HTTP+SSE-only server (POST 405, GET /sse)
#   nginx-buffering        nginx: proxy_buffering on / off / on + proxy_ignore_headers X-Accel-Buffering
#   nginx-keepalive        nginx upstream keepalive pool, three sessions, capture started mid-session
#   nginx-restart          backend restarted behind nginx: 502 pages, 404, the client re-initializes
#   nginx-cancel           notifications/cancelled from the SDK client; a raw client closing an SSE reply mid-call
#
# Needs root (tcpdump), python3 >= 3.11, node + npm, tcpdump, tshark (describe.py), nginx (Debian 12 package).
# First use creates gateways/.venv (mcp 2.3.0), gateways/.venv-proxy (mcp-proxy 0.13.0, which needs mcp 1.x) and
# gateways/node/node_modules (npm ci); all git-ignored.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways"                                       # harness, pins, venvs, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
PY="$W/.venv/bin/python"
PROXY_BIN="$W/.venv-proxy/bin/mcp-proxy"
NODE_BIN="$W/node/node_modules/.bin"
RUN="$W/run"                                            # scratch: nginx prefixes, logs, marker files
GROUP=gateways
DESCRIBE=("$PY" "$W/describe_gw.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    if [ ! -x "$PY" ]; then
        python3 -m venv "$W/.venv" && "$W/.venv/bin/pip" install -q -r "$W/requirements.txt"
    fi
    if [ ! -x "$PROXY_BIN" ]; then
        python3 -m venv "$W/.venv-proxy" && "$W/.venv-proxy/bin/pip" install -q -r "$W/requirements-proxy.txt"
    fi
    if [ ! -x "$NODE_BIN/supergateway" ]; then
        (cd "$W/node" && npm ci --no-audit --no-fund)
    fi
}

# start_nginx CONF: nginx -p RUN/nginx-CONF -c gateways/nginx/CONF.conf (a private prefix).
start_nginx() {
    local prefix="$RUN/nginx-$1"
    rm -rf "$prefix"; mkdir -p "$prefix/tmp"; chmod -R 777 "$prefix"
    bg "nginx-$1" nginx -p "$prefix" -c "$W/nginx/$1.conf"
}

client() { timeout 60 "$PY" "$W/gw_client.py" "$@"; }
backend_http() { bg "backend-$1" "$PY" "$W/gw_server.py" http --port "$1" "${@:2}"; wait_port "$1"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_mcp-proxy() {
    bg mcp-proxy "$PROXY_BIN" --host 127.0.0.1 --port 18300 -- "$PY" "$W/gw_server.py" stdio
    wait_port 18300; sleep 1
    capture_start mcp-proxy 18300
    client http --tag streamable --url http://127.0.0.1:18300/mcp/ --slow 3,0.5 || echo "   (client failed)"
    client sse --tag sse --url http://127.0.0.1:18300/sse --slow 3,0.5 || echo "   (client failed)"
    capture_stop mcp-proxy
    cleanup
}

scenario_supergateway-sse() {
    bg supergateway-sse "$NODE_BIN/supergateway" --stdio "$PY $W/gw_server.py stdio" --port 18310 \
        --baseUrl http://127.0.0.1:18310 --logLevel info
    wait_port 18310; sleep 1
    capture_start supergateway-sse 18310
    client sse --tag A --url http://127.0.0.1:18310/sse --slow 2,0.5 --pause 0.5 --timeout 25 \
        >"$RUN/client-A.log" 2>&1 &
    local a=$!
    sleep 0.3
    client sse --tag B --url http://127.0.0.1:18310/sse --pause 0.5 --timeout 25 >"$RUN/client-B.log" 2>&1 &
    local b=$!
    wait $a || echo "   (client A failed: see $RUN/client-A.log)"
    wait $b || echo "   (client B failed: see $RUN/client-B.log)"
    capture_stop supergateway-sse
    cleanup
}

scenario_supergateway-stateless() {
    bg supergateway-stateless "$NODE_BIN/supergateway" --stdio "$PY $W/gw_server.py stdio" \
        --outputTransport streamableHttp --port 18311 --logLevel info
    wait_port 18311; sleep 1
    capture_start supergateway-stateless 18311
    client http --tag stateless --url http://127.0.0.1:18311/mcp --slow 2,0.5 || echo "   (client failed)"
    capture_stop supergateway-stateless
    cleanup
}

mcp_remote() {
    # HOME and MCP_REMOTE_CONFIG_DIR under RUN: mcp-remote keeps its OAuth state there.
    HOME="$RUN/home" MCP_REMOTE_CONFIG_DIR="$RUN/home/.mcp-auth" \
        client stdio --tag "$1" --slow 2,0.5 -- node "$NODE_BIN/mcp-remote" "$2" --transport http-first
}

scenario_mcp-remote-streamable() {
    backend_http 18320
    capture_start mcp-remote-streamable 18320
    mcp_remote remote-streamable http://127.0.0.1:18320/mcp || echo "   (client failed)"
    capture_stop mcp-remote-streamable
    cleanup
}

scenario_mcp-remote-legacy() {
    bg backend-18321 "$PY" "$W/gw_server.py" sse --port 18321; wait_port 18321
    capture_start mcp-remote-legacy 18321
    mcp_remote remote-legacy http://127.0.0.1:18321/sse || echo "   (client failed)"
    capture_stop mcp-remote-legacy
    cleanup
}

scenario_nginx-buffering() {
    backend_http 18340
    start_nginx buffering; wait_port 18330; wait_port 18331; wait_port 18332
    capture_start nginx-buffering 18330 18331 18332 18340
    client http --tag buffering-on --url http://127.0.0.1:18330/mcp --slow 6,1.0 || echo "   (client failed)"
    client http --tag buffering-off --url http://127.0.0.1:18331/mcp --slow 6,1.0 || echo "   (client failed)"
    client http --tag ignore-x-accel --url http://127.0.0.1:18332/mcp --slow 6,1.0 || echo "   (client failed)"
    capture_stop nginx-buffering
    cleanup
}

scenario_nginx-keepalive() {
    backend_http 18341
    start_nginx keepalive; wait_port 18333
    rm -f "$RUN"/ka-*.ready "$RUN/ka.go"
    local t pids=()
    for t in s1 s2 s3; do
        client http --tag "$t" --url http://127.0.0.1:18333/mcp --slow 2,0.3 --pause 0.3 \
            --ready-file "$RUN/ka-$t.ready" --go-file "$RUN/ka.go" >"$RUN/client-$t.log" 2>&1 &
        pids+=($!)
    done
    for t in s1 s2 s3; do
        for _ in $(seq 1 300); do [ -e "$RUN/ka-$t.ready" ] && break; sleep 0.1; done
    done
    # the capture begins mid-session: all three sessions have initialized before it starts
    capture_start nginx-keepalive 18333 18341
    touch "$RUN/ka.go"
    for t in "${pids[@]}"; do wait "$t" || echo "   (a client failed: see $RUN/client-s*.log)"; done
    capture_stop nginx-keepalive
    cleanup
}

scenario_nginx-restart() {
    backend_http 18342
    start_nginx restart; wait_port 18334
    rm -f "$RUN/restart.ready"
    capture_start nginx-restart 18334 18342
    client restart --tag restart --url http://127.0.0.1:18334/mcp --ready-file "$RUN/restart.ready" \
        >"$RUN/client-restart.log" 2>&1 &
    local c=$!
    for _ in $(seq 1 300); do [ -e "$RUN/restart.ready" ] && break; sleep 0.1; done
    sleep 1.6
    local old=${PIDS[0]}
    stop "$old"                       # the backend goes away mid-session ...
    sleep 3
    backend_http 18342                # ... and comes back (a new process: it knows no session)
    wait $c || echo "   (client failed: see $RUN/client-restart.log)"
    capture_stop nginx-restart
    cleanup
}

scenario_nginx-cancel() {
    backend_http 18343
    start_nginx cancel; wait_port 18335
    capture_start nginx-cancel 18335 18343
    client cancel --tag cancel --url http://127.0.0.1:18335/mcp || echo "   (client failed)"
    client abort --tag abort --url http://127.0.0.1:18335/mcp || echo "   (client failed)"
    capture_stop nginx-cancel
    cleanup
}

ALL=(mcp-proxy supergateway-sse supergateway-stateless mcp-remote-streamable mcp-remote-legacy
     nginx-buffering nginx-keepalive nginx-restart nginx-cancel)
run_scenarios "tcpdump tshark nginx" -- "$@"

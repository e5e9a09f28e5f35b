#!/usr/bin/env bash
# mcptap ecosystem corpus, group "resume2": THIRD-PARTY MCP clients when an SSE stream whose events carry ids is really
# cut mid-flight, and what they then do on their own: reconnect with or without Last-Event-ID, re-POST, give up. The
# resume group's relay (../resume/relay.py, used from its path) sits between client and server and forwards bytes
# untouched; on the first connection whose request matches a pattern (the tools/call slow_count POST, or the
# standalone GET /mcp) it counts the SSE events it forwards and, after the N-th, resets both sides of that one
# connection (RST each way); a GET is matched only when it carries Mcp-Session-Id (the AI SDK's first GET, sent
# before it has a session, is refused 400 on a keep-alive connection that later carries POSTs). Servers, both with an event store so that every event carries an id: the Python SDK
# server (mcp 2.3.0, ../resume/resume_py.py server --store, under the sdks group's venv) and the TS SDK server
# (1.32.2, resume2/ts-server.mjs with the SDK's example InMemoryEventStore). Clients, driven through their own MCP
# client layer, no model: fastmcp's Client (PyPI fastmcp 2.14.7), langchain-mcp-adapters 0.3.2, the Vercel AI SDK's
# @ai-sdk/mcp 2.0.99 (its own HTTP transport). Plain HTTP/1.1 on loopback (127.0.0.1, ports 20370-20389 only), both
# hops in one capture (client <-> relay, relay <-> server).
#
#   sudo bash samples/gen/ecosystem/resume2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/resume2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/resume2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   fastmcp-py-post-cut    relay 20370 -> Python server 20371; fastmcp Client: slow_count(20) with a progress
#                          handler (20 progress notifications 0.1 s apart); the POST stream cut after 4 events
#   fastmcp-py-get-cut     20372 -> Python 20373; fastmcp: ticker(10) (10 notifications/message 0.2 s apart on the
#                          standalone GET stream), the GET stream cut after 3 events, 5 s idle
#   fastmcp-ts-post-cut    20374 -> TS server 20375; fastmcp: slow_count(20), POST stream cut after 4 events
#   langchain-ts-get-cut   20376 -> TS 20377; langchain-mcp-adapters session: ticker(10), GET cut after 3 events
#   langchain-py-post-cut  20378 -> Python 20379; langchain-mcp-adapters: slow_count(20) (on_progress callback),
#                          POST stream cut after 4 events
#   aisdk-ts-get-cut       20380 -> TS 20381; @ai-sdk/mcp (always with its own options protocolVersionDiscovery:
#                          false, initialProtocolVersion '2025-11-25': a classic initialize and a stateful session;
#                          its default first tries 2026-07-28 and then has no GET stream at all against the Python
#                          server): ticker(10), GET stream cut after 3 events
#   aisdk-py-get-cut       20382 -> Python 20383; @ai-sdk/mcp: ticker(10), GET stream cut after 3 events
#   aisdk-py-post-cut      20384 -> Python 20385; @ai-sdk/mcp: slow_count(20) (the AI SDK sends no progressToken, so
#                          the stream carries only its priming event before the response 2 s later): the POST
#                          stream cut after that first event
#   nginx-fastmcp-py       nginx 1.22 (resume2/nginx.conf: proxy_buffering off, proxy_read_timeout 2s) on 20386 ->
#                          Python server 20387, no relay: fastmcp Client ticker(3), then 5 s idle: nginx itself cuts
#                          the standalone GET stream once the server has sent nothing for 2 s
#   nginx-aisdk-ts         nginx on 20388 -> TS server 20389, no relay: @ai-sdk/mcp ticker(3), 5 s idle, the same cut
# After the call every client calls add(40,2) and closes.
#
# Needs root (tcpdump), tcpdump, tshark (../resume/wire.py), ss, python3 (3.11) with venv, node 20 + npm, nginx
# (Debian's 1.22.1). First use
# makes the sdks group's venv sdks/.venv (mcp 2.3.0 + uvicorn: the Python server and the relay), resume2/node_modules
# (`npm ci` of resume2/package-lock.json: TS SDK server, @ai-sdk/mcp) and resume2/.venv-fastmcp,
# resume2/.venv-langchain from resume2/requirements-*.txt (pip freezes). All git-ignored (resume2/.gitignore).
# Results and labels: samples/ecosystem/resume2.md, samples/ecosystem/labels-resume2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/resume2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=resume2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model, no API key; telemetry off where a tool has a switch.
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    FASTMCP_SHOW_CLI_BANNER=false LANGCHAIN_TRACING_V2=false

SDKPY="$ECO/sdks/.venv/bin/python"

setup() {
    setup_pysdk
    need_npm "$W"
    local v
    for v in fastmcp langchain; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
}

# mcp_server KIND(py|ts) NAME PORT: the server with its event store, up before the capture starts.
mcp_server() {
    if [ "$1" = ts ]; then
        server "$2" "$3" node "$W/ts-server.mjs" "$3"
    else
        server "$2" "$3" "$SDKPY" "$ECO/resume/resume_py.py" server --port "$3" --store
    fi
}

# client KIND(fastmcp|langchain|aisdk) NAME URL WHAT N: one bounded client run (timeout 60).
client() {
    local kind=$1 name=$2; shift 2
    case $kind in
        fastmcp)   run "$name-client" "$W/.venv-fastmcp/bin/python" "$W/fastmcp_client.py" "$@" ;;
        langchain) run "$name-client" "$W/.venv-langchain/bin/python" "$W/langchain_client.py" "$@" ;;
        aisdk)     run "$name-client" env -C "$W" node aisdk_client.mjs "$@" legacy ;;
    esac
}

# logs NAME: what the relay and the server said, indented.
logs() {
    local f
    for f in "$RUN/$1-relay.log" "$RUN/$1-server.log"; do
        [ -f "$f" ] && grep -v '^\s*$' "$f" | cut -c1-150 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}

# cut_run NAME CLIENT SERVER FRONT BACK MATCH AFTER WHAT N: server on BACK, the relay on FRONT cutting the first
# connection matching MATCH after AFTER events, capture of both ports, one client run through the relay, stop.
cut_run() {
    local name=$1 kind=$2 srv=$3 front=$4 back=$5 match=$6 after=$7 what=$8 n=$9
    rm -f "$RUN/$name"-*.log "$RUN/$name.cut"
    free "$front" "$back"
    guard_start "$name"
    mcp_server "$srv" "$name-server" "$back"
    server "$name-relay" "$front" "$SDKPY" "$ECO/resume/relay.py" --listen "$front" --to "$back" --match "$match" \
        --after "$after" --cut-file "$RUN/$name.cut"
    DESCRIBE=("$SDKPY" "$ECO/resume/wire.py" "$front" "$back")
    capture_start "$name" "$front" "$back"
    client "$kind" "$name" "http://$HOST:$front/mcp" "$what" "$n"
    capture_stop "$name"
    logs "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
SLOW='"name":\s*"slow_count"'
GET='(?i)^GET /mcp HTTP/1\.1\r\n(?:[^\r\n]+\r\n)*?mcp-session-id:'   # a GET that carries a session id
scenario_fastmcp-py-post-cut() { cut_run fastmcp-py-post-cut fastmcp py 20370 20371 "$SLOW" 4 slow 20; }
scenario_fastmcp-py-get-cut() { cut_run fastmcp-py-get-cut fastmcp py 20372 20373 "$GET" 3 ticker 10; }
scenario_fastmcp-ts-post-cut() { cut_run fastmcp-ts-post-cut fastmcp ts 20374 20375 "$SLOW" 4 slow 20; }
scenario_langchain-ts-get-cut() { cut_run langchain-ts-get-cut langchain ts 20376 20377 "$GET" 3 ticker 10; }
scenario_langchain-py-post-cut() { cut_run langchain-py-post-cut langchain py 20378 20379 "$SLOW" 4 slow 20; }
scenario_aisdk-ts-get-cut() { cut_run aisdk-ts-get-cut aisdk ts 20380 20381 "$GET" 3 ticker 10; }
scenario_aisdk-py-get-cut() { cut_run aisdk-py-get-cut aisdk py 20382 20383 "$GET" 3 ticker 10; }
scenario_aisdk-py-post-cut() { cut_run aisdk-py-post-cut aisdk py 20384 20385 "$SLOW" 1 slow 20; }

# nginx_run NAME CLIENT SERVER FRONT BACK: server on BACK, nginx (resume2/nginx.conf, both fronts) in front, capture
# of FRONT and BACK, one client run through nginx: ticker(3) and 5 s idle, so that nginx's 2 s read timeout cuts the
# idle standalone GET stream.
nginx_run() {
    local name=$1 kind=$2 srv=$3 front=$4 back=$5
    rm -f "$RUN/$name"-*.log
    rm -rf "$RUN/nginx"; mkdir -p "$RUN/nginx/tmp"
    free 20386 20388 "$back"
    guard_start "$name"
    mcp_server "$srv" "$name-server" "$back"
    server "$name-nginx" "$front" nginx -p "$RUN/nginx/" -c "$W/nginx.conf" -e error.log
    DESCRIBE=("$SDKPY" "$ECO/resume/wire.py" "$front" "$back")
    capture_start "$name" "$front" "$back"
    client "$kind" "$name" "http://$HOST:$front/mcp" ticker 3
    capture_stop "$name"
    grep -v '^\s*$' "$RUN/nginx/error.log" | cut -c1-160 | sed "s/^/   $name-nginx: /" || true
    cleanup
    sleep 1
    guard_stop "$name"
}
scenario_nginx-fastmcp-py() { nginx_run nginx-fastmcp-py fastmcp py 20386 20387; }
scenario_nginx-aisdk-ts() { nginx_run nginx-aisdk-ts aisdk ts 20388 20389; }

ALL=(fastmcp-py-post-cut fastmcp-py-get-cut fastmcp-ts-post-cut langchain-ts-get-cut langchain-py-post-cut
     aisdk-ts-get-cut aisdk-py-get-cut aisdk-py-post-cut nginx-fastmcp-py nginx-aisdk-ts)

run_scenarios "tcpdump tshark ss node nginx" -- "$@"

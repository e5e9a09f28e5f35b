#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers4": third-party JavaScript MCP server frameworks with HTTP code of their own,
# each in its documented setup, talking to the official SDK clients (TypeScript @modelcontextprotocol/sdk 1.32.2,
# Python mcp 2.3.0). Cleartext HTTP/1.1, captured on loopback (127.0.0.1, ports 19530-19549 only).
#
#   sudo bash samples/gen/ecosystem/jsservers4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/jsservers4.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/jsservers4-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/jsservers4-<scenario>.pcap.txt), port, what runs:
#   fastify-stateless 19530  fastify-mcp 3.0.0 on fastify 5.12.8 (jsservers4/fastify-server.mjs stateless: the README's
#                            `app.register(streamableHttp, { stateful: false, mcpEndpoint: "/mcp", sessions, createServer })`,
#                            an SDK 1.32.2 McpServer) <- TS SDK client (jsservers4/ts_client.mjs), then the Python SDK
#                            client (../relays/py_client.py --mode legacy)
#   fastify-stateful  19531  the same with `stateful: true` (its own session map, GET/DELETE) <- TS client, then Python
#                            client (legacy)
#   fastify-py-auto   19534  the stateful server <- the Python SDK client in its default mode (auto: a 2026-07-28
#                            server/discover first, answered 400 by fastify-mcp, then the classic initialize)
#   fastify-restart   19532  the stateful server, restarted under a live session: TS client (jsservers4/restart_client.mjs)
#                            initialize, tools/list, add; the server is stopped and started again (in-memory sessions
#                            gone); the client goes on with the old session id: add, echo, DELETE
#   fastify-sse       19533  fastify-mcp `app.register(fastifyMCPSSE, { server })` (the README's legacy HTTP+SSE plugin: GET
#                            /sse, POST /messages) <- TS SDK SSEClientTransport, then the Python SDK sse_client
#                            (../proxies2/py_client.py --sse --slow 3)
#   xmcp              19536  xmcp 1.1.3 (jsservers4/xmcp: `xmcp build` of xmcp.config.ts with `http` on 127.0.0.1:19536
#                            /mcp and three tools in src/tools, run as `node dist/http.js`: its own express server in
#                            front of the v2 SDK's handler) <- TS client, then Python client auto (2026-07-28), then
#                            Python client legacy
#
# Every client run (but fastify-restart's): initialize (or server/discover), tools/list, add(1,2), echo("hello"),
# slow_count(3) with a progress callback (progressToken), add(40,2), close (DELETE where the client sends one).
# Bounded: each client run by `timeout 60` (and its own 30-40 s guard). Servers are started and their port seen
# listening (the socket table, no probe) before the capture starts; everything is stopped after each scenario.
# No resumption scenario: neither framework offers one (fastify-mcp builds the SDK transport itself with no event
# store and no option to pass one; xmcp runs stateless), so no stream carries an `id:` to resume from.
#
# Needs root (tcpdump), tcpdump, tshark (the listing: ../agentsjs/wire.py), python3 with venv, node 20 + npm. First use
# makes sdks/.venv (the sdks group's venv), jsservers4/node_modules and jsservers4/xmcp/node_modules (`npm ci` from
# their package-lock.json), all git-ignored. xmcp's build is run under the offline guard with
# XMCP_TELEMETRY_DISABLED=true (its compiler otherwise posts a build event to telemetry.xmcp.dev); every scenario runs
# inside the offline guard (a second tcpdump of every packet that is not loopback to loopback).
# Results and labels: samples/ecosystem/jsservers4.md, samples/ecosystem/labels-jsservers4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/jsservers4"                                     # servers, clients, pins
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures
VPY="$ECO/sdks/.venv/bin/python"
GROUP=jsservers4
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, free, listening, capture_start/stop, guard_start/stop, run
mkdir -p "$CAP" "$WIRE" "$RUN"
export XMCP_TELEMETRY_DISABLED=true NO_UPDATE_NOTIFIER=1

XMCP_PORT=19536
setup() {
    setup_pysdk
    need_npm "$W"
    need_npm "$W/xmcp"
    if [ ! -f "$W/xmcp/dist/http.js" ] || [ "$W/xmcp/xmcp.config.ts" -nt "$W/xmcp/dist/http.js" ]; then
        guard_start xmcp-build
        (cd "$W/xmcp" && XMCP_PORT=$XMCP_PORT timeout 300 ./node_modules/.bin/xmcp build)
        guard_stop xmcp-build
    fi
}

TS=(node "$W/ts_client.mjs")
PYC=("$VPY" "$ECO/relays/py_client.py")

# scenario NAME PORT SERVER-CMD... -- CLIENT-RUN...: the server NAME-server on PORT (started from jsservers4/, seen
# listening in the socket table), the offline guard, a capture of PORT, the client runs one after the other (each a
# command line; `|` separates them), capture stop, guard stop, everything down.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=() cmd=() i=0
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    free "$port"
    cd "$W"
    bg "$name-server" "${srv[@]}"
    cd - >/dev/null
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    while [ $# -gt 0 ]; do
        cmd=()
        while [ $# -gt 0 ] && [ "$1" != "|" ]; do cmd+=("$1"); shift; done
        [ $# -gt 0 ] && shift
        i=$((i + 1))
        run "$name-client$i" "${cmd[@]}"
        sleep 0.5
    done
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}

u() { echo "http://$HOST:$1/mcp"; }
FS=(node "$W/fastify-server.mjs")

# --------------------------------------------------------------------------------------------- scenarios
scenario_fastify-stateless() {
    scenario fastify-stateless 19530 "${FS[@]}" 19530 stateless -- "${TS[@]}" streamable "$(u 19530)" \
        "|" "${PYC[@]}" "$(u 19530)" --mode legacy
}
scenario_fastify-stateful() {
    scenario fastify-stateful 19531 "${FS[@]}" 19531 stateful -- "${TS[@]}" streamable "$(u 19531)" \
        "|" "${PYC[@]}" "$(u 19531)" --mode legacy
}
scenario_fastify-py-auto() {
    scenario fastify-py-auto 19534 "${FS[@]}" 19534 stateful -- "${PYC[@]}" "$(u 19534)" --mode auto
}
# The restart: the client (4 s idle after its first add) runs in the background; 1.5 s in, the server's process group
# gets SIGTERM and a new server is started on the same port (seen listening); then the client is waited for (its own
# 40 s guard and timeout 60 bound it).
scenario_fastify-restart() {
    local name=fastify-restart port=19532 cpid srv
    free "$port"
    bg "$name-server" "${FS[@]}" "$port" stateful; srv=$LAST_PID
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    timeout 60 node "$W/restart_client.mjs" "$(u $port)" 4 >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 1.5
    stop "$srv"
    free "$port"
    bg "$name-server2" "${FS[@]}" "$port" stateful
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    sed "s/^/   $name-client: /" "$RUN/$name-client.log" | cut -c1-150 | tail -15
    sleep 0.5
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}
scenario_fastify-sse() {
    scenario fastify-sse 19533 "${FS[@]}" 19533 sse -- "${TS[@]}" sse "http://$HOST:19533/sse" \
        "|" "$VPY" "$ECO/proxies2/py_client.py" "http://$HOST:19533/sse" --sse --slow 3
}
scenario_xmcp() {
    scenario xmcp "$XMCP_PORT" node "$W/xmcp/dist/http.js" -- "${TS[@]}" streamable "$(u $XMCP_PORT)" \
        "|" "${PYC[@]}" "$(u $XMCP_PORT)" --mode auto "|" "${PYC[@]}" "$(u $XMCP_PORT)" --mode legacy
}

ALL=(fastify-stateless fastify-stateful fastify-py-auto fastify-restart fastify-sse xmcp)

run_scenarios "tcpdump tshark node npm python3" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers3": more third-party JavaScript/TypeScript MCP servers, a stdio bridge and a
# client from npm, each in its documented default setup (and one option users turn on), talking to the official SDK
# clients (TypeScript @modelcontextprotocol/sdk 1.32.2, Python mcp 2.3.0) or, for the client, to the official Python
# SDK server. Cleartext HTTP/1.1, captured on loopback (127.0.0.1, ports 19410-19429 only).
#
#   sudo bash samples/gen/ecosystem/jsservers3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/jsservers3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/jsservers3-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/jsservers3-<scenario>.pcap.txt), port, what runs:
#   nest-ts         19410  @rekog/mcp-nest 2.0.5 (jsservers3/nest-server.mjs: the README's Quick Start,
#                          `new StreamableHttpTransport()` at its defaults: stateless, JSON replies, both eras on /mcp)
#                          <- TS SDK client (jsservers3/ts_client.mjs)
#   nest-py         19411  the same server <- Python SDK client twice: its default mode (auto: 2026-07-28
#                          server/discover first), then mode="legacy" (../relays/py_client.py)
#   nest-stateful   19412  the same with `{ statefulMode: true }` (sessions, SSE replies, GET/DELETE) <- TS client,
#                          then Python client (legacy)
#   emh-stateless   19413  express-mcp-handler 0.3.0 (jsservers3/emh-server.mjs stateless: the README's Quick Start,
#                          only `app.post('/mcp', statelessHandler(factory))`) <- TS client, then Python client (legacy)
#   emh-stateful    19414  express-mcp-handler 0.3.0 `statefulHandlers(factory, { sessionIdGenerator })` on POST, GET
#                          and DELETE /mcp <- TS client, then Python client (legacy)
#   mcpuse-ts       19415  mcp-use 2.5.2 `MCPServer` + `listen()` at its defaults (jsservers3/mcpuse-server.mjs:
#                          `legacy: "stateless"`, both eras on /mcp) <- TS client, slow_count(60) (6 s of progress)
#   mcpuse-py       19416  the same server <- Python client twice: auto (2026-07-28), then legacy
#   mcp-proxy       19417  mcp-proxy 6.7.19 CLI (`mcp-proxy --host 127.0.0.1 --port P node stdio-server.mjs`, every
#                          other option at its default: /mcp and /sse, event store on, 2026-07-28 leg on) in front of
#                          a TS SDK stdio server (jsservers3/stdio-server.mjs; that hop is a pipe, not on the wire)
#                          <- TS client, then Python client auto, then Python client legacy
#   strands         19418  Python SDK server (../py_server.py: stateful, SSE replies, no event store) <- Strands
#                          Agents TS SDK 1.19.0 `McpClient({ url })` (jsservers3/strands-client.mjs)
#   emh-sse         19419  express-mcp-handler 0.3.0 `sseHandlers(factory, {})` (the README's SSE mode: GET /sse, POST
#                          /messages) <- TS SDK SSEClientTransport, then the Python SDK sse_client
#                          (../proxies2/py_client.py --sse --slow 3)
#
# Every client run: initialize (or server/discover), tools/list, add(1,2), echo("hello"), slow_count(3) with a
# progress callback (progressToken; Strands sends none), add(40,2), close (DELETE where the client sends one). Bounded:
# each client run by `timeout 60` (and its own 30-40 s guard). Servers are started and their port seen listening
# (the socket table, no probe) before the capture starts; everything is stopped after each scenario.
#
# Needs root (tcpdump), tcpdump, tshark (the listing: ../agentsjs/wire.py, the replicas listing with accept,
# mcp-method, mcp-name, user-agent among the head fields), python3 with venv, node 20 + npm. First use makes
# sdks/.venv (the sdks group's venv: Python SDK client and server) and jsservers3/node_modules (`npm ci` from
# jsservers3/package-lock.json); both git-ignored. Telemetry: mcp-use's PostHog client is switched off with
# MCP_USE_ANONYMIZED_TELEMETRY=false; OTEL_SDK_DISABLED=true for Strands (it configures no exporter anyway); each
# scenario runs inside the offline guard (a second tcpdump of every packet that is not loopback to loopback).
# Results and labels: samples/ecosystem/jsservers3.md, samples/ecosystem/labels-jsservers3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/jsservers3"                                     # servers, clients, pins
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures
VPY="$ECO/sdks/.venv/bin/python"
GROUP=jsservers3
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, free, listening, capture_start/stop, guard_start/stop, run
mkdir -p "$CAP" "$WIRE" "$RUN"
export MCP_USE_ANONYMIZED_TELEMETRY=false OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1

setup() {
    setup_pysdk
    need_npm "$W"
}

TS=(node "$W/ts_client.mjs")
PYC=("$VPY" "$ECO/relays/py_client.py")
STRANDS=(node "$W/strands-client.mjs")

# scenario NAME PORT SERVER-CMD... -- CLIENT-RUN...: the server NAME-server on PORT (started from jsservers3/, seen
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

# --------------------------------------------------------------------------------------------- scenarios
scenario_nest-ts() {
    scenario nest-ts 19410 node "$W/nest-server.mjs" 19410 -- "${TS[@]}" streamable "$(u 19410)"
}
scenario_nest-py() {
    scenario nest-py 19411 node "$W/nest-server.mjs" 19411 -- "${PYC[@]}" "$(u 19411)" --mode auto \
        "|" "${PYC[@]}" "$(u 19411)" --mode legacy
}
scenario_nest-stateful() {
    scenario nest-stateful 19412 node "$W/nest-server.mjs" 19412 --stateful -- "${TS[@]}" streamable "$(u 19412)" \
        "|" "${PYC[@]}" "$(u 19412)" --mode legacy
}
scenario_emh-stateless() {
    scenario emh-stateless 19413 node "$W/emh-server.mjs" 19413 stateless -- "${TS[@]}" streamable "$(u 19413)" \
        "|" "${PYC[@]}" "$(u 19413)" --mode legacy
}
scenario_emh-stateful() {
    scenario emh-stateful 19414 node "$W/emh-server.mjs" 19414 stateful -- "${TS[@]}" streamable "$(u 19414)" \
        "|" "${PYC[@]}" "$(u 19414)" --mode legacy
}
scenario_mcpuse-ts() {
    scenario mcpuse-ts 19415 node "$W/mcpuse-server.mjs" 19415 -- "${TS[@]}" streamable "$(u 19415)" 60
}
scenario_mcpuse-py() {
    scenario mcpuse-py 19416 node "$W/mcpuse-server.mjs" 19416 -- "${PYC[@]}" "$(u 19416)" --mode auto \
        "|" "${PYC[@]}" "$(u 19416)" --mode legacy
}
scenario_mcp-proxy() {
    scenario mcp-proxy 19417 node "$W/node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs" --host "$HOST" --port 19417 \
        node "$W/stdio-server.mjs" -- "${TS[@]}" streamable "$(u 19417)" "|" "${PYC[@]}" "$(u 19417)" --mode auto \
        "|" "${PYC[@]}" "$(u 19417)" --mode legacy
}
scenario_strands() {
    scenario strands 19418 "$VPY" "$ECO/py_server.py" 19418 --name jsservers3-py-server -- "${STRANDS[@]}" "$(u 19418)"
}
scenario_emh-sse() {
    scenario emh-sse 19419 node "$W/emh-server.mjs" 19419 sse -- "${TS[@]}" sse "http://$HOST:19419/sse" \
        "|" "$VPY" "$ECO/proxies2/py_client.py" "http://$HOST:19419/sse" --sse --slow 3
}

ALL=(nest-ts nest-py nest-stateful emh-stateless emh-stateful emh-sse mcpuse-ts mcpuse-py mcp-proxy strands)

run_scenarios "tcpdump tshark node npm python3" -- "$@"

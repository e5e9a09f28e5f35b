#!/usr/bin/env bash
# mcptap ecosystem corpus, group "agentsjs": JavaScript/TypeScript agent frameworks from npm as MCP clients (and a
# framework's own MCP server), against the official SDK servers and clients, fully offline (no LLM: each framework's
# MCP tool objects or MCP server objects called directly; no network beyond loopback: telemetry and tracing switched
# off, and a guard capture of all other traffic checks it), captured on loopback (127.0.0.1, ports 19170-19189 only).
#
#   sudo bash samples/gen/ecosystem/agentsjs.sh             # every scenario
#   sudo bash samples/gen/ecosystem/agentsjs.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/agentsjs-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mastra-ts          port 19170: TS SDK 1.32.2 server (agentsjs/ts-server.mjs: express 5, the README's stateful
#                      pattern, SSE replies, no 2026-07-28) <- Mastra @mastra/mcp 2.0.0 MCPClient (TS SDK v2 client
#                      @modelcontextprotocol/client 2.0.0, `auto` version negotiation), listTools(), each tool's
#                      execute(), disconnect() (agentsjs/mastra-client.mjs)
#   mastra-py          port 19171: Python SDK 2.3.0 server (../py_server.py: streamable_http_app defaults, stateful,
#                      SSE replies, answers 2026-07-28 too) <- the same Mastra client
#   openai-agents-ts   port 19172: TS SDK 1.32.2 server <- OpenAI Agents SDK for TS (@openai/agents-core 0.20.0, TS
#                      SDK v2 client) MCPServerStreamableHttp: connect(), listTools(), callTool() x4, close()
#                      (agentsjs/openai-agents-client.mjs streamable)
#   openai-agents-sse  port 19174: TS SDK 1.32.2 legacy HTTP+SSE server (ts-server.mjs --sse: GET /sse, POST
#                      /messages?sessionId=) <- the same SDK's MCPServerSSE (openai-agents-client.mjs sse)
#   genkit-ts          port 19175: TS SDK 1.32.2 server <- Genkit @genkit-ai/mcp 1.42.0 createMcpClient (TS SDK
#                      1.32.2 client), getActiveTools(ai), each tool action called, disable()
#                      (agentsjs/genkit-client.mjs)
#   mastra-server-py   port 19176: Mastra's own MCPServer (agentsjs/mastra-server.mjs: startHTTP on node:http,
#                      2026-07-28 only) <- official Python SDK client (mcp 2.3.0, sdks/.venv, ../relays/py_client.py)
#                      in its default `auto` mode
#   mastra-server-ts   port 19177: the same Mastra server <- official TS SDK 1.32.2 client (agentsjs/ts-client.mjs:
#                      initialize handshake only)
#
# Every client run: tools/list, add(1,2), echo("hello"), slow_count(3) (3 notifications/progress 0.1 s apart when
# the request carries a progressToken), add(40,2), 0.1 s apart, through the framework's API, its defaults otherwise
# (Mastra: enableProgressTracking on, its documented switch for a progressToken). Each client run is bounded
# (timeout 60 here, 30 s inside). The server is up before the capture starts and stopped after it.
#
# Needs root (tcpdump), tcpdump, tshark (agentsjs/wire.py: agents/wire.py, which imports replicas/wire.py, with
# `accept` among the head fields), ss, python3 with venv, node 20 + npm (Mastra 2.0.0 and openai 7 declare
# node >= 22 but run on 20.20.2). First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server and
# client) and agentsjs/node_modules (`npm ci` from agentsjs/package-lock.json). All git-ignored (agentsjs/.gitignore).
# Results and labels: samples/ecosystem/agentsjs.md, samples/ecosystem/labels-agentsjs.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/agentsjs"                                       # harness code, pins, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=agentsjs
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python server and client; runs wire.py
# No network beyond loopback: Mastra, the OpenAI Agents SDK (tracing export) and Genkit telemetry off; nothing here
# sets an API key.
export MASTRA_TELEMETRY_DISABLED=1 OPENAI_AGENTS_DISABLE_TRACING=1 DO_NOT_TRACK=1 GENKIT_TELEMETRY=false \
    GENKIT_ENV=prod NEXT_TELEMETRY_DISABLED=1

setup() {
    setup_pysdk
    need_npm "$W"
}

PY_SERVER=("$SDKPY" "$ECO/py_server.py")
TS_SERVER=(node "$W/ts-server.mjs")

# agentsjs NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that port, one
# bounded client run, stop, listing by agentsjs/wire.py), inside a guard capture of every packet that is not
# 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1).
agentsjs() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_mastra-ts() {
    agentsjs mastra-ts 19170 "${TS_SERVER[@]}" 19170 -- node "$W/mastra-client.mjs" "http://$HOST:19170/mcp"
}
scenario_mastra-py() {
    agentsjs mastra-py 19171 "${PY_SERVER[@]}" 19171 --name agentsjs-py-server -- node "$W/mastra-client.mjs" "http://$HOST:19171/mcp"
}
scenario_openai-agents-ts() {
    agentsjs openai-agents-ts 19172 "${TS_SERVER[@]}" 19172 -- node "$W/openai-agents-client.mjs" streamable "http://$HOST:19172/mcp"
}
scenario_openai-agents-sse() {
    agentsjs openai-agents-sse 19174 "${TS_SERVER[@]}" 19174 --sse -- node "$W/openai-agents-client.mjs" sse "http://$HOST:19174/sse"
}
scenario_genkit-ts() {
    agentsjs genkit-ts 19175 "${TS_SERVER[@]}" 19175 -- node "$W/genkit-client.mjs" "http://$HOST:19175/mcp"
}
scenario_mastra-server-py() {
    agentsjs mastra-server-py 19176 node "$W/mastra-server.mjs" 19176 -- "$SDKPY" "$ECO/relays/py_client.py" "http://$HOST:19176/mcp" --mode auto
}
scenario_mastra-server-ts() {
    agentsjs mastra-server-ts 19177 node "$W/mastra-server.mjs" 19177 -- node "$W/ts-client.mjs" "http://$HOST:19177/mcp"
}

ALL=(mastra-ts mastra-py openai-agents-ts openai-agents-sse genkit-ts mastra-server-py mastra-server-ts)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "clients7": three npm agent frameworks' MCP client layers not yet in the corpus, as
# MCP clients over HTTP, driven through their own MCP API (connect, list tools, run tools as the framework's tool
# wrapper does, close as the framework closes), no model anywhere. Servers: the official Python SDK (mcp 2.3.0,
# ../clients4/clients4_server.py: add, slow_count with progress, fail that raises), its legacy HTTP+SSE app, and the
# official TS SDK server (1.32.2, ../proxies2/ts-server.mjs; no fail). Our code is only the harness and the drivers
# (clients7/*_client.mjs, clients7/strands/strands_client.mjs). Captured on loopback (127.0.0.1, ports 20430-20449):
#   strands-py        port 20430: @strands-agents/sdk 1.19.0 McpClient({url}) (TS SDK 1.32.2 Streamable HTTP):
#                     listTools, McpTool.stream add, slow_count, fail (the agent loop's tool path), disconnect
#                     -> Python SDK server
#   strands-ts        port 20431: the same -> TS SDK server
#   strands-restart   port 20432: listTools, add, (client paused 6 s) the Python SDK server is stopped and started
#                     again (its sessions are gone), add three times more, disconnect
#   beeai-py          port 20433: beeai-framework 0.1.30 MCPTool.fromClient over a TS SDK 1.32.2 Client +
#                     StreamableHTTPClientTransport, Tool.run add, slow_count, fail, client.close() -> Python server
#   beeai-ts          port 20434: the same -> TS SDK server
#   beeai-restart     port 20435: beeai, the restart between add and three more adds
#   agentic-sse       port 20436: @agentic/mcp 7.6.9 createMcpTools({serverUrl}) (its URL option is the TS SDK's
#                     legacy SSEClientTransport), AIFunction add, slow_count, fail, client.close() -> legacy
#                     HTTP+SSE app
#   agentic-py        port 20437: createMcpTools({transport: StreamableHTTPClientTransport}) -> Python SDK server
#   agentic-restart   port 20438: serverUrl (HTTP+SSE): add, the legacy app is stopped and started again, three adds
#   agentic-mcp-url   port 20439: serverUrl given the Streamable HTTP URL /mcp of the Python SDK server (a
#                     configuration that names the modern endpoint): what the legacy transport does with it
# (port 20449 is never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/clients7.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients7.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients7-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients7-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0, the server), proxies2/node_modules (the TS SDK server's), clients7/
# node_modules (`npm ci` of clients7/package-lock.json: beeai-framework, @agentic/mcp, zod 3; clients7/.npmrc sets
# legacy-peer-deps, beeai-framework's optional LangChain peers conflict) and clients7/strands/node_modules
# (@strands-agents/sdk wants zod 4). All git-ignored (clients7/.gitignore).
# Results and labels: samples/ecosystem/clients7.md, samples/ecosystem/labels-clients7.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients7"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients7
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model: nothing here sets an API key; telemetry off where a tool has a switch
# (Strands' OpenTelemetry hooks use the no-op @opentelemetry/api without an SDK; OTEL_SDK_DISABLED all the same).
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production

SDKPY="$ECO/sdks/.venv/bin/python"
SERVER=("$SDKPY" "$ECO/clients4/clients4_server.py")   # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    need_npm "$W/strands"
}

# begin NAME PORT SERVER-CMD...: guard on, the server up on PORT, the capture on.
begin() {
    local name=$1 port=$2; shift 2
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    server "$name-server" "$port" "$@"
    capture_start "$name" "$port"
}
# end NAME: capture stop and listing, everything down, guard off.
end() {
    capture_stop "$1"
    cleanup
    sleep 1
    guard_stop "$1"
}
# server_cmd KIND PORT NAME: the server command line for KIND py, sse or ts.
server_cmd() {
    case $1 in
        py)  SRV=("${SERVER[@]}" "$2" --name "$3") ;;
        sse) SRV=("${SERVER[@]}" "$2" --name "$3" --sse) ;;
        ts)  SRV=("${TS_SERVER[@]}" "$2") ;;
    esac
}
# scenario NAME PORT SERVER-KIND -- CLIENT-CMD...: SERVER-KIND py, sse or ts; one bounded client run.
scenario() {
    local name=$1 port=$2 kind=$3; shift 4
    server_cmd "$kind" "$port" "clients7-$name"
    begin "$name" "$port" "${SRV[@]}"
    run "$name-client" "$@"
    end "$name"
}
PY_URL() { echo "http://$HOST:$1/mcp"; }
SSE_URL() { echo "http://$HOST:$1/sse"; }
STRANDS=(env -C "$W/strands" node strands_client.mjs)
BEEAI=(env -C "$W" node beeai_client.mjs)
AGENTIC=(env -C "$W" node agentic_client.mjs)

# --------------------------------------------------------------------------------------------- scenarios
scenario_strands-py() { scenario strands-py 20430 py -- "${STRANDS[@]}" "$(PY_URL 20430)"; }
scenario_strands-ts() { scenario strands-ts 20431 ts -- "${STRANDS[@]}" "$(PY_URL 20431)"; }
scenario_beeai-py() { scenario beeai-py 20433 py -- "${BEEAI[@]}" "$(PY_URL 20433)"; }
scenario_beeai-ts() { scenario beeai-ts 20434 ts -- "${BEEAI[@]}" "$(PY_URL 20434)"; }
scenario_agentic-sse() { scenario agentic-sse 20436 sse -- "${AGENTIC[@]}" "$(SSE_URL 20436)" sse; }
scenario_agentic-py() { scenario agentic-py 20437 py -- "${AGENTIC[@]}" "$(PY_URL 20437)" http; }
scenario_agentic-mcp-url() { scenario agentic-mcp-url 20439 py -- "${AGENTIC[@]}" "$(PY_URL 20439)" sse; }

# restart_scenario NAME PORT SERVER-KIND CLIENT-CMD...: the Python SDK server (py) or its legacy app (sse) on PORT;
# the client (in the background, bounded) calls add and pauses 6 s; as soon as its log shows the first result the
# server is stopped (SIGINT) and started again; the client calls add three times more and closes.
restart_scenario() {
    local name=$1 port=$2 kind=$3 cpid; shift 3
    server_cmd "$kind" "$port" "clients7-$name-first"
    begin "$name" "$port" "${SRV[@]}"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    local i
    for i in $(seq 1 300); do grep -q '^add ->' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    server_cmd "$kind" "$port" "clients7-$name-second"
    bg "$name-server2" "${SRV[@]}"
    listening "$port"   # the socket table, not a probe (lib.sh server's wait_port would put a connection on the wire)
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-client: /" || true
    end "$name"
}
scenario_strands-restart() { restart_scenario strands-restart 20432 py "${STRANDS[@]}" "$(PY_URL 20432)" restart; }
scenario_beeai-restart() { restart_scenario beeai-restart 20435 py "${BEEAI[@]}" "$(PY_URL 20435)" restart; }
scenario_agentic-restart() { restart_scenario agentic-restart 20438 sse "${AGENTIC[@]}" "$(SSE_URL 20438)" sse-restart; }

ALL=(strands-py strands-ts strands-restart beeai-py beeai-ts beeai-restart agentic-sse agentic-py agentic-restart
     agentic-mcp-url)

run_scenarios "tcpdump tshark ss node" -- "$@"

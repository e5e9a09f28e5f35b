#!/usr/bin/env bash
# Ecosystem group clients6: three Python agent frameworks from PyPI as MCP clients over HTTP, each driven through its
# own MCP client layer (no model, no API key), against the official Python SDK server (mcp 2.3.0,
# clients4/clients4_server.py, and its --sse legacy HTTP+SSE app) and the official TS SDK server (1.32.2,
# proxies2/ts-server.mjs). Scenarios and ports (127.0.0.1 only):
#   agentscope-py         port 20270: agentscope 2.0.11 MCPClient (mcp 2.3.0 `Client` mode="auto"), stateful:
#                         connect, list_tools, add, slow_count, fail, close -> Python SDK server
#   agentscope-ts         port 20271: the same -> TS SDK server (no fail tool)
#   agentscope-stateless  port 20272: agentscope MCPClient is_stateful=False (a client per list and per call)
#                         -> Python SDK server
#   agentscope-restart    port 20273: stateful agentscope, the Python server restarted between add and three more adds
#   agentscope-restart-ts port 20281: the same against the TS SDK server (where agentscope holds a session)
#   qwen-py               port 20274: qwen-agent 0.0.34 MCPManager (mcp 1.30.0), "type": "streamable-http":
#                         initConfig, add, slow_count, fail (each after a ping), shutdown -> Python SDK server
#   qwen-sse              port 20275: qwen-agent with no "type" (its default: HTTP+SSE) -> legacy HTTP+SSE app
#   qwen-ts               port 20276: qwen-agent streamable-http -> TS SDK server
#   qwen-restart          port 20277: qwen-agent streamable-http, the restart between add and three more adds
#   swarms-py             port 20278: swarms 16.0.3 MCPManager (mcp 2.3.0): get_tools, execute_tool_calls with the
#                         three calls in one model-style response -> Python SDK server
#   swarms-sse            port 20279: swarms with a URL ending in /sse (its auto transport picks HTTP+SSE), the
#                         same batch -> legacy HTTP+SSE app
#   swarms-ts             port 20280: swarms get_tools, then call_tool per call (a session each) -> TS SDK server
# (ports 20282-20289 are never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/clients6.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients6.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients6-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients6-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0, the server), proxies2/node_modules (the TS SDK server's) and one venv per
# framework, clients6/.venv-NAME from clients6/requirements-NAME.txt (pip freezes). All git-ignored
# (clients6/.gitignore).
# Results and labels: samples/ecosystem/clients6.md, samples/ecosystem/labels-clients6.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model: nothing here sets an API key; telemetry off where a tool has a switch
# (swarms sends OpenTelemetry spans unless SWARMS_TELEMETRY_ON is an off value).
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    ANONYMIZED_TELEMETRY=False SWARMS_TELEMETRY_ON=false SWARMS_VERBOSE_GLOBAL=False
# swarms makes its workspace folder (an empty error.txt) in the working directory unless told where.
export WORKSPACE_DIR="$RUN/swarms-workspace"

SDKPY="$ECO/sdks/.venv/bin/python"
SERVER=("$SDKPY" "$ECO/clients4/clients4_server.py")   # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    local v
    for v in agentscope qwen swarms; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
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
# scenario NAME PORT SERVER-KIND -- CLIENT-CMD...: SERVER-KIND py, sse or ts; one bounded client run.
scenario() {
    local name=$1 port=$2 kind=$3; shift 4
    case $kind in
        py)  begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients6-$name" ;;
        sse) begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients6-$name" --sse ;;
        ts)  begin "$name" "$port" "${TS_SERVER[@]}" "$port" ;;
    esac
    run "$name-client" "$@"
    end "$name"
}
PY_URL() { echo "http://$HOST:$1/mcp"; }
SSE_URL() { echo "http://$HOST:$1/sse"; }
AGENTSCOPE=("$W/.venv-agentscope/bin/python" "$W/agentscope_client.py")
QWEN=("$W/.venv-qwen/bin/python" "$W/qwen_client.py")
SWARMS=("$W/.venv-swarms/bin/python" "$W/swarms_client.py")

# --------------------------------------------------------------------------------------------- scenarios
scenario_agentscope-py() { scenario agentscope-py 20270 py -- "${AGENTSCOPE[@]}" "$(PY_URL 20270)" stateful; }
scenario_agentscope-ts() { scenario agentscope-ts 20271 ts -- "${AGENTSCOPE[@]}" "$(PY_URL 20271)" stateful; }
scenario_agentscope-stateless() { scenario agentscope-stateless 20272 py -- "${AGENTSCOPE[@]}" "$(PY_URL 20272)" stateless; }
scenario_qwen-py() { scenario qwen-py 20274 py -- "${QWEN[@]}" "$(PY_URL 20274)" streamable-http calls; }
scenario_qwen-sse() { scenario qwen-sse 20275 sse -- "${QWEN[@]}" "$(SSE_URL 20275)" sse calls; }
scenario_qwen-ts() { scenario qwen-ts 20276 ts -- "${QWEN[@]}" "$(PY_URL 20276)" streamable-http calls; }
scenario_swarms-py() { scenario swarms-py 20278 py -- "${SWARMS[@]}" "$(PY_URL 20278)" batch; }
scenario_swarms-sse() { scenario swarms-sse 20279 sse -- "${SWARMS[@]}" "$(SSE_URL 20279)" batch; }
scenario_swarms-ts() { scenario swarms-ts 20280 ts -- "${SWARMS[@]}" "$(PY_URL 20280)" single; }

# restart_scenario NAME PORT KIND CLIENT-CMD...: the Python SDK server (KIND py) or the TS SDK server (KIND ts) on
# PORT; the client (in the background, bounded) calls add and pauses 6 s; as soon as its log shows the first result
# the server is stopped (SIGINT) and started again; the client calls add three times more and closes.
restart_scenario() {
    local name=$1 port=$2 kind=$3 cpid; shift 3
    local srv=("${SERVER[@]}" "$port" --name "clients6-$name-first") srv2=("${SERVER[@]}" "$port" --name "clients6-$name-second")
    [ "$kind" = ts ] && { srv=("${TS_SERVER[@]}" "$port"); srv2=("${srv[@]}"); }
    begin "$name" "$port" "${srv[@]}"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    local i
    for i in $(seq 1 300); do grep -q '^add ->' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    bg "$name-server2" "${srv2[@]}"
    listening "$port"   # the socket table, not a probe (lib.sh server's wait_port would put a connection on the wire)
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-client: /" || true
    end "$name"
}
scenario_agentscope-restart() { restart_scenario agentscope-restart 20273 py "${AGENTSCOPE[@]}" "$(PY_URL 20273)" restart; }
scenario_agentscope-restart-ts() { restart_scenario agentscope-restart-ts 20281 ts "${AGENTSCOPE[@]}" "$(PY_URL 20281)" restart; }
scenario_qwen-restart() { restart_scenario qwen-restart 20277 py "${QWEN[@]}" "$(PY_URL 20277)" streamable-http restart; }

ALL=(agentscope-py agentscope-ts agentscope-stateless agentscope-restart agentscope-restart-ts qwen-py qwen-sse qwen-ts qwen-restart
     swarms-py swarms-sse swarms-ts)

run_scenarios "tcpdump tshark ss node" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "clients8": four agent frameworks' MCP client layers not yet in the corpus, as MCP
# clients over Streamable HTTP, driven through their own MCP API. Servers: the official Python SDK (mcp 2.3.0,
# ../clients4/clients4_server.py: add, slow_count with progress (n=30: 3 s), fail that raises) and the official TS
# SDK server (1.32.2, clients8/ts-server.mjs, a copy of ../proxies2/ts-server.mjs: add, echo, report, slow_count).
# The two tiny-agents clients need a model: a scripted OpenAI-compatible stub (clients8/llm_stub.py) on 127.0.0.1:20745,
# which asks for add(2,3) and slow_count(30) (only add when the prompt says "add only"), then answers "done"; its port
# is outside the captures' filter. Our code is only the harness and the drivers (clients8/*_client.*). Captured on
# loopback (127.0.0.1, ports 20730-20749):
#   mirascope-py      port 20731: mirascope 2.8.2 llm.mcp.streamable_http_client(url), list_tools, AsyncToolkit
#                     execute add, slow_count, fail, close -> Python SDK server
#   mirascope-ts      port 20732: the same -> TS SDK server (no fail tool: that call is refused by the server)
#   mirascope-restart port 20733: add, (client paused 6 s) the Python SDK server is stopped and started again, add x3
#   hfpy-py           port 20734: huggingface_hub 2.4.0 Agent(servers=[{type: http}], base_url=stub): load_tools, one
#                     run (the stub asks for add and slow_count), cleanup -> Python SDK server
#   hfpy-restart      port 20735: a run asking for add only, the restart, a second such run
#   hfjs-py           port 20736: @huggingface/mcp-client 0.2.3 Agent({endpointUrl: stub, servers: [{type: "http"}]})
#                     loadTools, one run, cleanup -> Python SDK server
#   hfjs-ts           port 20737: the same -> TS SDK server
#   hfjs-restart      port 20738: as hfpy-restart
#   atomic-py         port 20739: atomic-agents 2.15.0 fetch_mcp_tools(base, HTTP_STREAM) (it appends "/mcp/"), each
#                     tool's run(): add, slow_count, fail (the default: a new connection and session per call)
#   atomic-ts         port 20740: the same -> TS SDK server (add, slow_count, and fail that the server lacks)
#   atomic-restart    port 20741: add, the restart, add x3
# (ports 20748-20749 were used for trial runs outside any capture.)
#
#   sudo bash samples/gen/ecosystem/clients8.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients8.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients8-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients8-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3.11 and python3.12 with venv (atomic-agents 2.x needs
# Python >= 3.12; PYTHON312=... names another 3.12 interpreter), node 20 + npm. First use makes clients8/.venv-server (requirements-server.txt, the sdks group's
# pins: mcp 2.3.0), .venv-mirascope, .venv-hf, .venv-atomic (requirements-*.txt) and clients8/node_modules (`npm ci`:
# @huggingface/mcp-client, the TS SDK, express, zod). All git-ignored (clients8/.gitignore).
# Results and labels: samples/ecosystem/clients8.md, samples/ecosystem/labels-clients8.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients8"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients8
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback: no API key anywhere (the stub takes "none"); telemetry off where a tool has a switch.
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 HF_HUB_DISABLE_TELEMETRY=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production

SRVPY="$W/.venv-server/bin/python"
SERVER=("$SRVPY" "$ECO/clients4/clients4_server.py")   # PORT --name NAME
TS_SERVER=(node "$W/ts-server.mjs")                     # PORT
STUB_PORT=20745

setup() {
    need_venv "$W/.venv-server" "$W/requirements-server.txt"
    need_venv "$W/.venv-mirascope" "$W/requirements-mirascope.txt"
    need_venv "$W/.venv-hf" "$W/requirements-hf.txt"
    [ -x "$W/.venv-atomic/bin/python3.12" ] || { "${PYTHON312:-python3.12}" -m venv "$W/.venv-atomic" && "$W/.venv-atomic/bin/python3.12" -m pip install -q -r "$W/requirements-atomic.txt"; }
    need_npm "$W"
}

# begin NAME PORT SERVER-CMD...: guard on, the server up on PORT, the capture on.
begin() {
    local name=$1 port=$2; shift 2
    DESCRIBE=("$SRVPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    server "$name-server" "$port" "$@"
    capture_start "$name" "$port"
}
end() {
    capture_stop "$1"
    cleanup
    sleep 1
    guard_stop "$1"
}
server_cmd() {
    case $1 in
        py) SRV=("${SERVER[@]}" "$2" --name "$3") ;;
        ts) SRV=("${TS_SERVER[@]}" "$2") ;;
    esac
}
stub_up() { free "$STUB_PORT"; bg "$1-stub" "$SRVPY" "$W/llm_stub.py" "$STUB_PORT"; listening "$STUB_PORT"; }
URL() { echo "http://$HOST:$1/mcp"; }
BASE() { echo "http://$HOST:$1"; }
STUB="http://$HOST:$STUB_PORT/v1"
MIRASCOPE=("$W/.venv-mirascope/bin/python" "$W/mirascope_client.py")   # URL calls|restart
HFPY=("$W/.venv-hf/bin/python" "$W/hf_client.py")                      # URL STUB calls|restart
HFJS=(env -C "$W" node hfjs_client.mjs)                                # URL STUB calls|restart
ATOMIC=("$W/.venv-atomic/bin/python3.12" "$W/atomic_client.py")        # BASE calls|restart

# scenario NAME PORT SERVER-KIND STUB(yes|no) -- CLIENT-CMD...
scenario() {
    local name=$1 port=$2 kind=$3 stub=$4; shift 5
    server_cmd "$kind" "$port" "clients8-$name"
    [ "$stub" = yes ] && stub_up "$name"
    begin "$name" "$port" "${SRV[@]}"
    run "$name-client" "$@"
    end "$name"
}
# restart_scenario NAME PORT STUB(yes|no) CLIENT-CMD...: the Python SDK server on PORT; the client (in the background,
# bounded) calls add and prints PAUSE, then waits 6 s; as soon as its log shows PAUSE the server is stopped (SIGINT)
# and started again; the client calls add three times more (tiny-agents: a second run) and closes.
restart_scenario() {
    local name=$1 port=$2 stub=$3 cpid i; shift 3
    server_cmd py "$port" "clients8-$name-first"
    [ "$stub" = yes ] && stub_up "$name"
    begin "$name" "$port" "${SRV[@]}"
    local srvpid="${PIDS[-1]}"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do grep -q '^PAUSE' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "$srvpid" INT
    free "$port"
    server_cmd py "$port" "clients8-$name-second"
    bg "$name-server2" "${SRV[@]}"
    listening "$port"   # the socket table, not a probe
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-client: /" || true
    end "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_mirascope-py() { scenario mirascope-py 20731 py no -- "${MIRASCOPE[@]}" "$(URL 20731)" calls; }
scenario_mirascope-ts() { scenario mirascope-ts 20732 ts no -- "${MIRASCOPE[@]}" "$(URL 20732)" calls; }
scenario_mirascope-restart() { restart_scenario mirascope-restart 20733 no "${MIRASCOPE[@]}" "$(URL 20733)" restart; }
scenario_hfpy-py() { scenario hfpy-py 20734 py yes -- "${HFPY[@]}" "$(URL 20734)" "$STUB" calls; }
scenario_hfpy-restart() { restart_scenario hfpy-restart 20735 yes "${HFPY[@]}" "$(URL 20735)" "$STUB" restart; }
scenario_hfjs-py() { scenario hfjs-py 20736 py yes -- "${HFJS[@]}" "$(URL 20736)" "$STUB" calls; }
scenario_hfjs-ts() { scenario hfjs-ts 20737 ts yes -- "${HFJS[@]}" "$(URL 20737)" "$STUB" calls; }
scenario_hfjs-restart() { restart_scenario hfjs-restart 20738 yes "${HFJS[@]}" "$(URL 20738)" "$STUB" restart; }
scenario_atomic-py() { scenario atomic-py 20739 py no -- "${ATOMIC[@]}" "$(BASE 20739)" calls; }
scenario_atomic-ts() { scenario atomic-ts 20740 ts no -- "${ATOMIC[@]}" "$(BASE 20740)" calls; }
scenario_atomic-restart() { restart_scenario atomic-restart 20741 no "${ATOMIC[@]}" "$(BASE 20741)" restart; }

ALL=(mirascope-py mirascope-ts mirascope-restart hfpy-py hfpy-restart hfjs-py hfjs-ts hfjs-restart atomic-py atomic-ts
     atomic-restart)

run_scenarios "tcpdump tshark ss node python3.12" -- "$@"

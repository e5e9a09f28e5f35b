#!/usr/bin/env bash
# mcptap ecosystem corpus, group "restartpy": what third-party Python MCP clients (agent frameworks, and the official
# Python SDK client) really do when the server loses their session. The official Python SDK server (../py_server.py,
# mcp 2.3.0: streamable_http_app defaults, stateful, sessions in the process's memory, SSE replies without ids, no
# event store) is killed (SIGKILL) and started again on the same port in the middle of a client's session, so the
# client's next request with its old Mcp-Session-Id is answered 404 {"code":-32600,"message":"Session not found"}.
# Fully offline (no LLM: scripted models or the frameworks' tool objects called directly; telemetry and tracing off,
# and a guard capture of all other traffic checks it), captured on loopback (127.0.0.1, ports 19210-19218 only).
#
#   sudo bash samples/gen/ecosystem/restartpy.sh             # every scenario
#   sudo bash samples/gen/ecosystem/restartpy.sh SCENARIO..  # some of them
#
# Every client run (restartpy/*_client.py on restartpy/common.py): initialize, tools/list, add(1,2), echo("hello"),
# [restart point], add(40,2), echo("again"), 0.7 s apart, then close; one session held across the calls (the
# frameworks that open a new session per call, llama-index and langchain-mcp-adapters' default, are not taken).
# At the restart point the driver writes run/NAME.ready and waits; this script kills the server (SIGKILL to its
# process group), starts a new one on the same port (serverInfo name restartpy-py-server-b instead of -a, so the wire
# says which process answered an initialize), waits until it listens (by the socket table, no probe) and 1 s more,
# then touches run/NAME.go. The driver never re-initializes, retries or reconnects by itself; a call that raises is
# logged and the driver goes on to its next call. Scenarios (capture samples/ecosystem/restartpy-<scenario>.pcap,
# listing samples/gen/wire/ecosystem/restartpy-<scenario>.pcap.txt):
#   pysdk            port 19210: Python SDK client mcp 2.3.0 Client(streamable_http_client(U), mode="legacy")
#   smolagents       port 19211: smolagents 1.26.0 MCPClient (mcpadapt 0.1.19, mcp 1.30.0), Tools called directly
#   autogen          port 19212: autogen-ext 0.7.5 McpWorkbench(StreamableHttpServerParams) (mcp 1.30.0)
#   google-adk       port 19213: google-adk 2.13.0 McpToolset in an LlmAgent, one Runner run per call, scripted model
#                    (mcp 2.3.0)
#   agno             port 19214: agno 3.1.10 MCPTools(transport="streamable-http") (FastMCP 4.2.3, mcp 2.3.0)
#   mcp-use          port 19215: mcp-use 1.7.1 MCPClient.from_dict, create_session, session.call_tool (mcp 1.30.0)
#   pysdk-midcall    port 19217: Python SDK client (Streamable HTTP) whose 2nd call is slow_count(30) with a progress
#                    callback; the restart point is just before that call, and the server is killed 1.2 s into it,
#                    while its SSE reply streams progress notifications
#   pysdk-sse-midcall  port 19218: the same over the legacy HTTP+SSE transport (py_server.py --sse, Client(sse_client
#                    (U))): the kill cuts the GET /sse stream that carries the slow call's progress and its reply
#
# Needs root (tcpdump), tcpdump, tshark (the listing: agents/wire.py, which imports replicas/wire.py by path). This
# group installs nothing: it reuses the other groups' venvs by path, which must exist (run agents.sh, agents2.sh and
# sdks.sh once to make them): sdks/.venv (the mcp 2.3.0 server, the Python SDK client, the listing),
# agents2/.venv-smolagents, agents2/.venv-autogen, agents2/.venv-google-adk, agents2/.venv-agno and
# agents/.venv-mcp-use. Scratch (logs, marks, guard captures) in restartpy/run/ (git-ignored). Results and
# labels: samples/ecosystem/restartpy.md, samples/ecosystem/labels-restartpy.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/restartpy"                                      # client drivers
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, marks, the offline guard's captures
GROUP=restartpy
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, capture_start/stop, guard_*, listening, free
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"
# No network beyond loopback (as agents.sh and agents2.sh): OpenTelemetry off (ADK), Agno's telemetry off, google-auth
# kept from the mTLS probe and the GCE metadata server (ADK), mcp-use's anonymized telemetry off (PostHog), Hugging
# Face offline (smolagents), DO_NOT_TRACK for the rest. No API key is set.
export OTEL_SDK_DISABLED=true AGNO_TELEMETRY=false HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 \
    ANONYMIZED_TELEMETRY=False DO_NOT_TRACK=1 GOOGLE_API_USE_CLIENT_CERTIFICATE=false NO_GCE_CHECK=true \
    LANGCHAIN_TRACING_V2=false MCP_USE_ANONYMIZED_TELEMETRY=false

setup() {
    local v
    for v in "$ECO/sdks/.venv" "$ECO/agents2/.venv-smolagents" "$ECO/agents2/.venv-autogen" \
             "$ECO/agents2/.venv-google-adk" "$ECO/agents2/.venv-agno" "$ECO/agents/.venv-mcp-use"; do
        [ -x "$v/bin/python" ] || { echo "missing venv $v (run the group that makes it first)" >&2; exit 1; }
    done
}

# pyserver NAME PORT LETTER [--sse]: the Python SDK server (restartpy-py-server-LETTER) up on PORT, watched by the
# socket table (no probe connection); its pid in LAST_PID.
pyserver() {
    local name=$1 port=$2 letter=$3; shift 3
    bg "$name-server-$letter" "$SDKPY" "$ECO/py_server.py" "$port" --name "restartpy-py-server-$letter" "$@"
    listening "$port"
}

# restart NAME PORT DELAY SERVER-OPTS -- CLIENT-CMD...: server a up, capture and guard, the client run (timeout 60)
# with URL-independent args already given and MARK appended; at its .ready mark, DELAY s later, SIGKILL server a,
# start server b on the same port, wait until it listens and 1 s more, touch .go; wait for the client, stop capture
# and guard, everything down.
restart() {
    local name=$1 port=$2 delay=$3 srv=() cpid i rc=0 pa
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    local mark="$RUN/$name"
    rm -f "$mark.ready" "$mark.go"
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    pyserver "$name" "$port" a "${srv[@]}"; pa=$LAST_PID
    capture_start "$name" "$port"
    timeout 60 "$@" "$mark" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do { [ -e "$mark.ready" ] || ! kill -0 "$cpid" 2>/dev/null; } && break; sleep 0.1; done
    if [ -e "$mark.ready" ]; then
        sleep "$delay"
        echo "   restart point reached: SIGKILL server a, start server b on $port"
        stop "$pa" KILL
        pyserver "$name" "$port" b "${srv[@]}"
        sleep 1
    else
        echo "   the client did not reach the restart point: no restart" >&2
    fi
    touch "$mark.go"
    wait "$cpid" || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-160 | tail -40 \
        | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
py() { echo "$ECO/$1/bin/python"; }                     # py GROUP/.venv-NAME: that venv's python
mcp() { echo "http://$HOST:$1/mcp"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_pysdk()         { restart pysdk 19210 0 -- "$SDKPY" "$W/pysdk_client.py" "$(mcp 19210)"; }
scenario_smolagents()    { restart smolagents 19211 0 -- "$(py agents2/.venv-smolagents)" "$W/smolagents_client.py" "$(mcp 19211)"; }
scenario_autogen()       { restart autogen 19212 0 -- "$(py agents2/.venv-autogen)" "$W/autogen_client.py" "$(mcp 19212)"; }
scenario_google-adk()    { restart google-adk 19213 0 -- "$(py agents2/.venv-google-adk)" "$W/adk_client.py" "$(mcp 19213)"; }
scenario_agno()          { restart agno 19214 0 -- "$(py agents2/.venv-agno)" "$W/agno_client.py" "$(mcp 19214)"; }
scenario_mcp-use()       { restart mcp-use 19215 0 -- "$(py agents/.venv-mcp-use)" "$W/mcp_use_client.py" "$(mcp 19215)"; }
scenario_pysdk-midcall() { restart pysdk-midcall 19217 1.2 -- "$SDKPY" "$W/pysdk_client.py" --midcall "$(mcp 19217)"; }
scenario_pysdk-sse-midcall() {
    restart pysdk-sse-midcall 19218 1.2 --sse -- "$SDKPY" "$W/pysdk_client.py" --sse --midcall "http://$HOST:19218/sse"
}

ALL=(pysdk smolagents autogen google-adk agno mcp-use pysdk-midcall pysdk-sse-midcall)

run_scenarios "tcpdump tshark" -- "$@"

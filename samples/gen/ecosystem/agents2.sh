#!/usr/bin/env bash
# mcptap ecosystem corpus, group "agents2": real MCP traffic of more Python agent frameworks used as MCP clients (the
# agents group has langchain, mcp-use, openai-agents, pydantic-ai), each against the official Python SDK server over
# Streamable HTTP and over the legacy HTTP+SSE transport, fully offline (no LLM: the framework's MCP tool objects
# called directly, or, for Google ADK, its agent loop with a scripted model of ours; no network beyond loopback:
# telemetry and tracing switched off, and a guard capture of all other traffic checks it), captured on loopback
# (127.0.0.1, ports 19150-19161 only).
#
#   sudo bash samples/gen/ecosystem/agents2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/agents2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/agents2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt). The
# server is ../py_server.py (Python SDK 2.3.0: streamable_http_app defaults on /mcp, stateless-capable, SSE replies
# without ids; with --sse the sse_app defaults, GET /sse + POST /messages/?session_id=):
#   llama-index       port 19150: llama-index-tools-mcp 0.6.0 (mcp 2.3.0) McpToolSpec(BasicMCPClient(url)),
#                     to_tool_list_async(), each FunctionTool acall'ed (agents2/llama_index_client.py): BasicMCPClient
#                     opens a NEW MCP session for the list and for every call
#   llama-index-sse   port 19151: the same, URL .../sse (BasicMCPClient picks sse_client from the path)
#   smolagents        port 19152: smolagents 1.26.0 MCPClient (mcpadapt 0.1.19, mcp 1.30.0), transport
#                     "streamable-http", each Tool called directly (agents2/smolagents_client.py)
#   smolagents-sse    port 19153: the same, transport "sse"
#   autogen           port 19154: autogen-ext 0.7.5 (mcp 1.30.0) McpWorkbench(StreamableHttpServerParams), list_tools,
#                     call_tool (agents2/autogen_client.py)
#   autogen-sse       port 19155: the same with SseServerParams
#   google-adk        port 19156: google-adk 2.13.0 (mcp 2.3.0) LlmAgent with McpToolset(StreamableHTTPConnectionParams),
#                     run by Runner with a scripted BaseLlm of ours, one tool call per turn (agents2/adk_client.py)
#   google-adk-sse    port 19157: the same with SseConnectionParams
#   strands           port 19158: strands-agents 1.62.0 (mcp 2.1.1) MCPClient(url=U, progress_callback=...),
#                     list_tools_sync, call_tool_sync (agents2/strands_client.py); it speaks stateless
#                     2026-07-28, and over HTTP+SSE too; our progress_callback puts a progressToken on every call
#   strands-sse       port 19159: the same, MCPClient(lambda: sse_client(U))
#   agno              port 19160: agno 3.1.10 MCPTools(url, transport="streamable-http") (FastMCP 4.2.3 client, mcp
#                     2.3.0), each tool's entrypoint awaited (agents2/agno_client.py): a ping before every call,
#                     a progressToken on every call
#   agno-sse          port 19161: the same, transport "sse"
#
# Every client run: tools listed, then add(1,2), echo("hello"), slow_count(3) (3 notifications/progress 0.1 s apart
# when the request carries a progressToken), add(40,2), one after the other, 0.1 s apart, through the framework, with
# its defaults for everything else. Each client run is bounded (timeout 60 here, 30 s inside).
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, which imports replicas/wire.py by path), python3 with venv.
# First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server) and one venv per framework
# agents2/.venv-NAME from agents2/requirements-NAME.txt (the frameworks pin different `mcp` lines: 1.30.0, 2.1.1,
# 2.3.0). All git-ignored (agents2/.gitignore). Results and labels: samples/ecosystem/agents2.md,
# samples/ecosystem/labels-agents2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/agents2"                                        # harness code, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=agents2
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK server; also runs wire.py
FRAMEWORKS=(llama-index smolagents autogen google-adk strands agno)
# No network beyond loopback. OpenTelemetry off (Strands and ADK instrument MCP calls), Agno's telemetry off (it posts
# to its API otherwise), Hugging Face offline and anonymized telemetry off (smolagents), DO_NOT_TRACK for the rest.
# ADK's McpToolset probes for mTLS with google.auth.default() unless GOOGLE_API_USE_CLIENT_CERTIFICATE=false, and
# google-auth asks the GCE metadata server unless NO_GCE_CHECK is set: both are set. Nothing here sets an API key.
export OTEL_SDK_DISABLED=true AGNO_TELEMETRY=false HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 \
    ANONYMIZED_TELEMETRY=False DO_NOT_TRACK=1 GOOGLE_API_USE_CLIENT_CERTIFICATE=false NO_GCE_CHECK=true \
    LANGCHAIN_TRACING_V2=false

setup() {
    local f
    setup_pysdk
    for f in "${FRAMEWORKS[@]}"; do need_venv "$W/.venv-$f" "$W/requirements-$f.txt"; done
}

PY_SERVER=("$SDKPY" "$ECO/py_server.py" --name agents2-py-server)
py() { echo "$W/.venv-$1/bin/python"; }                 # py FRAMEWORK: that framework's venv python

# agents2 NAME PORT [--sse] CLIENT-CMD...: lib.sh capture_run (the Python SDK server up on PORT, with --sse its
# legacy app, capture of that port, one bounded client run, stop, listing by agents/wire.py), with a guard capture
# for the whole scenario of every packet that is not 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1). The guard's packets
# are listed as a warning, not a failure: another program's traffic on this machine lands there too.
agents2() {
    local name=$1 port=$2 srv=("${PY_SERVER[@]}" "$2")
    shift 2
    if [ "$1" = "--sse" ]; then srv+=(--sse --name agents2-py-sse-server); shift; fi
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    capture_run "$name" "$port" "${srv[@]}" -- "$@"
    sleep 1
    guard_stop "$name"
}
mcp() { echo "http://$HOST:$1/mcp"; }
sse() { echo "http://$HOST:$1/sse"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_llama-index()     { agents2 llama-index 19150 "$(py llama-index)" "$W/llama_index_client.py" "$(mcp 19150)"; }
scenario_llama-index-sse() { agents2 llama-index-sse 19151 --sse "$(py llama-index)" "$W/llama_index_client.py" "$(sse 19151)"; }
scenario_smolagents()      { agents2 smolagents 19152 "$(py smolagents)" "$W/smolagents_client.py" streamable-http "$(mcp 19152)"; }
scenario_smolagents-sse()  { agents2 smolagents-sse 19153 --sse "$(py smolagents)" "$W/smolagents_client.py" sse "$(sse 19153)"; }
scenario_autogen()         { agents2 autogen 19154 "$(py autogen)" "$W/autogen_client.py" streamable-http "$(mcp 19154)"; }
scenario_autogen-sse()     { agents2 autogen-sse 19155 --sse "$(py autogen)" "$W/autogen_client.py" sse "$(sse 19155)"; }
scenario_google-adk()      { agents2 google-adk 19156 "$(py google-adk)" "$W/adk_client.py" streamable-http "$(mcp 19156)"; }
scenario_google-adk-sse()  { agents2 google-adk-sse 19157 --sse "$(py google-adk)" "$W/adk_client.py" sse "$(sse 19157)"; }
scenario_strands()         { agents2 strands 19158 "$(py strands)" "$W/strands_client.py" streamable-http "$(mcp 19158)"; }
scenario_strands-sse()     { agents2 strands-sse 19159 --sse "$(py strands)" "$W/strands_client.py" sse "$(sse 19159)"; }
scenario_agno()            { agents2 agno 19160 "$(py agno)" "$W/agno_client.py" streamable-http "$(mcp 19160)"; }
scenario_agno-sse()        { agents2 agno-sse 19161 --sse "$(py agno)" "$W/agno_client.py" sse "$(sse 19161)"; }

ALL=(llama-index llama-index-sse smolagents smolagents-sse autogen autogen-sse google-adk google-adk-sse strands
     strands-sse agno agno-sse)

run_scenarios "tcpdump tshark" -- "$@"

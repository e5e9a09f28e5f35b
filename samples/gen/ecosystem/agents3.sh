#!/usr/bin/env bash
# mcptap ecosystem corpus, group "agents3": real MCP traffic of Python agent frameworks that use more of the protocol
# than tools (sampling, elicitation, roots, logging, resources, prompts) as MCP clients (agents and agents2 have
# langchain, mcp-use, openai-agents, pydantic-ai, llama-index, smolagents, autogen, google-adk, strands, agno), each
# against a Python SDK server of ours whose tools ask the client for sampling, elicitation and roots from inside a
# tool call, over Streamable HTTP and over the legacy HTTP+SSE transport, fully offline (no LLM: fast-agent's own
# passthrough model, mcp-agent's and Semantic Kernel's MCP objects called directly, Semantic Kernel with an offline
# echo chat service of ours; no network beyond loopback: telemetry off, and a guard capture of all other traffic checks
# it), captured on loopback (127.0.0.1, ports 19310-19315 only).
#
#   sudo bash samples/gen/ecosystem/agents3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/agents3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/agents3-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt). The
# server is agents3/agents3_server.py (Python SDK mcp 2.3.0 MCPServer: streamable_http_app defaults on /mcp, stateful,
# SSE replies without ids; with --sse the sse_app defaults, GET /sse + POST /messages/?session_id=). Its tools
# ask_llm, ask_user and client_roots send sampling/createMessage, elicitation/create and roots/list to the client on
# the tool call's own reply stream, log_steps sends notifications/message, slow_count notifications/progress:
#   fast-agent          port 19310: fast-agent-mcp 0.2.36 (mcp 1.10.1), an agent on the `passthrough` model driven by
#                       `***CALL_TOOL` messages, sampling by a passthrough model, one root (agents3/fast_agent_client.py)
#   fast-agent-sse      port 19311: the same, transport sse
#   mcp-agent           port 19312: mcp-agent 0.2.6 (mcp 1.30.0) MCPApp + Agent, call_tool etc. directly, an
#                       elicitation callback of ours, one root, no LLM (agents3/mcp_agent_client.py)
#   mcp-agent-sse       port 19313: the same, transport sse
#   semantic-kernel     port 19314: semantic-kernel 1.45.0 (mcp 1.30.0) MCPStreamableHttpPlugin in a Kernel with an
#                       offline echo chat service (for sampling), kernel.invoke of the plugin functions
#                       (agents3/sk_client.py)
#   semantic-kernel-sse port 19315: the same with MCPSsePlugin
#
# Every client run: the framework's connect (initialize, tools/list, and what else it lists), then add(1,2),
# slow_count(3), log_steps(3), ask_llm("What is 6 times 7?"), client_roots(), ask_user(), 0.1 s apart, then a resource
# read and/or a prompt get where the framework has one. Each client run is bounded (timeout 60 here, 40 s inside; the
# server gives each server->client request 10 s).
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, which imports replicas/wire.py by path), python3 (3.11) with
# venv. First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server) and one venv per framework
# agents3/.venv-NAME from agents3/requirements-NAME.txt (pip freezes, `==` for every package). All git-ignored
# (agents3/.gitignore). Results and labels: samples/ecosystem/agents3.md, samples/ecosystem/labels-agents3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/agents3"                                        # harness code, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, fast-agent's config, the guard's captures
GROUP=agents3
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the server; also runs wire.py
FRAMEWORKS=(fast-agent mcp-agent semantic-kernel)
# No network beyond loopback. OpenTelemetry off everywhere (fast-agent's config also says otel.enabled false;
# mcp-agent's Settings say usage_telemetry.enabled false: it reports usage otherwise), Semantic Kernel's GenAI
# diagnostics off, DO_NOT_TRACK for the rest. Nothing here sets an API key.
export OTEL_SDK_DISABLED=true DO_NOT_TRACK=1 ANONYMIZED_TELEMETRY=False HF_HUB_OFFLINE=1 \
    SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS=false \
    SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE=false

setup() {
    local f
    setup_pysdk
    for f in "${FRAMEWORKS[@]}"; do need_venv "$W/.venv-$f" "$W/requirements-$f.txt"; done
}

py() { echo "$W/.venv-$1/bin/python"; }                 # py FRAMEWORK: that framework's venv python

# agents3 NAME PORT [--sse] CLIENT-CMD...: lib.sh capture_run (our server up on PORT, with --sse its legacy app,
# capture of that port, one bounded client run in RUN, stop, listing by agents/wire.py), with a guard capture for the
# whole scenario of every packet that is not 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1).
agents3() {
    local name=$1 port=$2 srv=("$SDKPY" "$W/agents3_server.py" "$2" --name agents3-py-server)
    shift 2
    if [ "$1" = "--sse" ]; then srv=("$SDKPY" "$W/agents3_server.py" "$port" --sse --name agents3-py-sse-server); shift; fi
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    capture_run "$name" "$port" "${srv[@]}" -- env -C "$RUN" "$@"
    sleep 1
    guard_stop "$name"
}
mcp() { echo "http://$HOST:$1/mcp"; }
sse() { echo "http://$HOST:$1/sse"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_fast-agent()          { agents3 fast-agent 19310 "$(py fast-agent)" "$W/fast_agent_client.py" http "$(mcp 19310)" "$RUN/fast-agent"; }
scenario_fast-agent-sse()      { agents3 fast-agent-sse 19311 --sse "$(py fast-agent)" "$W/fast_agent_client.py" sse "$(sse 19311)" "$RUN/fast-agent-sse"; }
scenario_mcp-agent()           { agents3 mcp-agent 19312 "$(py mcp-agent)" "$W/mcp_agent_client.py" streamable_http "$(mcp 19312)"; }
scenario_mcp-agent-sse()       { agents3 mcp-agent-sse 19313 --sse "$(py mcp-agent)" "$W/mcp_agent_client.py" sse "$(sse 19313)"; }
scenario_semantic-kernel()     { agents3 semantic-kernel 19314 "$(py semantic-kernel)" "$W/sk_client.py" streamable-http "$(mcp 19314)"; }
scenario_semantic-kernel-sse() { agents3 semantic-kernel-sse 19315 --sse "$(py semantic-kernel)" "$W/sk_client.py" sse "$(sse 19315)"; }

ALL=(fast-agent fast-agent-sse mcp-agent mcp-agent-sse semantic-kernel semantic-kernel-sse)

run_scenarios "tcpdump tshark" -- "$@"

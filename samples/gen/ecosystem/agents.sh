#!/usr/bin/env bash
# mcptap ecosystem corpus, group "agents": real MCP traffic of the agent frameworks users run as MCP clients, each
# with its own defaults and usage pattern, against the official SDK servers, fully offline (no LLM: each framework's
# own offline model class or a scripted Model of ours, or its MCP tools called through the framework's API; no
# network beyond loopback: telemetry and tracing switched off, and a guard capture of all other traffic checks it),
# captured on loopback (127.0.0.1, ports 19000-19029 only).
#
#   sudo bash samples/gen/ecosystem/agents.sh             # every scenario
#   sudo bash samples/gen/ecosystem/agents.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/agents-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   langchain             port 19000: Python SDK 2.3.0 server (../py_server.py: streamable_http_app defaults,
#                         stateful, SSE replies, answers both eras) <- langchain-mcp-adapters 0.3.2 (mcp 1.30.0)
#                         MultiServerMCPClient {"transport": "streamable_http"}, get_tools() then each LangChain tool
#                         invoked (agents/langchain_client.py): a NEW MCP session for get_tools() and for every call
#   langchain-sse         port 19001: Python SDK 2.3.0 legacy HTTP+SSE app (py_server.py --sse: GET /sse, POST
#                         /messages/) <- the same client, {"transport": "sse"}
#   pydantic-ai           port 19010: Python SDK 2.3.0 server <- pydantic-ai 2.78.0 Agent with MCPToolset(url) (FastMCP
#                         4.2.3 client, mcp 2.3.0) and a scripted FunctionModel (agents/pydantic_ai_client.py)
#   pydantic-ai-to-ts     port 19011: TS SDK 1.32.2 server (agents/ts-server.mjs: express 5, the README's stateful
#                         pattern, SSE replies, no 2026-07-28) <- the same pydantic-ai client
#   openai-agents         port 19020: Python SDK 2.3.0 server <- OpenAI Agents SDK 0.24.0 (mcp 2.3.0)
#                         MCPServerStreamableHttp defaults (cache_tools_list off), Runner.run with a scripted Model of
#                         ours (agents/openai_agents_client.py)
#   openai-agents-cached  port 19021: the same, cache_tools_list=True
#   mcp-use               port 19025: Python SDK 2.3.0 server <- mcp-use 1.7.1 (mcp 1.30.0) MCPClient.from_dict, create_session,
#                         list_tools, call_tool, close_all_sessions (agents/mcp_use_client.py)
#   mcp-use-sse           port 19026: Python SDK 2.3.0 legacy HTTP+SSE app <- the same mcp-use client, url .../sse
#                         (its connector tries Streamable HTTP first and falls back to HTTP+SSE on any failure)
#   langchain-js          port 19028: TS SDK 1.32.2 server <- @langchain/mcp-adapters 1.1.4 (TS SDK client 1.32.2)
#                         MultiServerMCPClient { transport: 'http' }, getTools(), each tool invoked, close()
#                         (agents/langchain-client.mjs)
#
# Every client run: add(1,2), echo("hello"), slow_count(3) (3 notifications/progress 0.1 s apart when the request
# carries a progressToken), add(40,2), one after the other, through the framework (an agent run of 5 model turns
# for pydantic-ai and the OpenAI Agents SDK; direct tool invocation for the LangChain adapters and mcp-use), with
# the framework's defaults for everything else. Each client run is bounded (timeout 60 here, 30 s inside).
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, which imports replicas/wire.py by path), python3 with venv,
# node 20 + npm. First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server), one venv per
# framework agents/.venv-NAME from agents/requirements-NAME.txt (the frameworks pin different `mcp` majors), and
# agents/node_modules (`npm ci`). All git-ignored (agents/.gitignore). Results and labels:
# samples/ecosystem/agents.md, samples/ecosystem/labels-agents.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/agents"                                         # harness code, pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=agents
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK server; also runs wire.py
FRAMEWORKS=(langchain pydantic-ai openai-agents mcp-use)
# No network beyond loopback: mcp-use posts anonymized telemetry to PostHog and the OpenAI Agents SDK exports traces
# to OpenAI unless told not to (the client code disables tracing too); nothing here sets an API key.
export MCP_USE_ANONYMIZED_TELEMETRY=false OPENAI_AGENTS_DISABLE_TRACING=1 LANGCHAIN_TRACING_V2=false

setup() {
    local f
    setup_pysdk
    for f in "${FRAMEWORKS[@]}"; do need_venv "$W/.venv-$f" "$W/requirements-$f.txt"; done
    need_npm "$W"
}

PY_SERVER=("$SDKPY" "$ECO/py_server.py" --name agents-py-server)
TS_SERVER=(node "$W/ts-server.mjs")
py() { echo "$W/.venv-$1/bin/python"; }                 # py FRAMEWORK: that framework's venv python

# agents NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that port, one
# bounded client run, stop, listing by agents/wire.py), with a guard capture for the whole scenario of every packet
# that is not 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1): DNS (also to a local resolver on 127.0.0.53), telemetry, a
# model API would show there. The guard's packets are listed as a warning, not a failure: another program's traffic
# on this machine (a package download) lands there too.
agents() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_langchain() {
    agents langchain 19000 "${PY_SERVER[@]}" 19000 -- "$(py langchain)" "$W/langchain_client.py" streamable_http "http://$HOST:19000/mcp"
}
scenario_langchain-sse() {
    agents langchain-sse 19001 "${PY_SERVER[@]}" 19001 --sse --name agents-py-sse-server -- "$(py langchain)" "$W/langchain_client.py" sse "http://$HOST:19001/sse"
}
scenario_pydantic-ai() {
    agents pydantic-ai 19010 "${PY_SERVER[@]}" 19010 -- "$(py pydantic-ai)" "$W/pydantic_ai_client.py" "http://$HOST:19010/mcp"
}
scenario_pydantic-ai-to-ts() {
    agents pydantic-ai-to-ts 19011 "${TS_SERVER[@]}" 19011 -- "$(py pydantic-ai)" "$W/pydantic_ai_client.py" "http://$HOST:19011/mcp"
}
scenario_openai-agents() {
    agents openai-agents 19020 "${PY_SERVER[@]}" 19020 -- "$(py openai-agents)" "$W/openai_agents_client.py" "http://$HOST:19020/mcp"
}
scenario_openai-agents-cached() {
    agents openai-agents-cached 19021 "${PY_SERVER[@]}" 19021 -- "$(py openai-agents)" "$W/openai_agents_client.py" "http://$HOST:19021/mcp" --cache
}
scenario_mcp-use() {
    agents mcp-use 19025 "${PY_SERVER[@]}" 19025 -- "$(py mcp-use)" "$W/mcp_use_client.py" "http://$HOST:19025/mcp"
}
scenario_mcp-use-sse() {
    agents mcp-use-sse 19026 "${PY_SERVER[@]}" 19026 --sse --name agents-py-sse-server -- "$(py mcp-use)" "$W/mcp_use_client.py" "http://$HOST:19026/sse"
}
scenario_langchain-js() {
    agents langchain-js 19028 "${TS_SERVER[@]}" 19028 -- node "$W/langchain-client.mjs" "http://$HOST:19028/mcp"
}

ALL=(langchain langchain-sse pydantic-ai pydantic-ai-to-ts openai-agents openai-agents-cached mcp-use mcp-use-sse langchain-js)

run_scenarios "tcpdump tshark node npm" -- "$@"

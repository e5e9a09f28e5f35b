#!/usr/bin/env bash
# mcptap ecosystem corpus, group "clients4": agent frameworks not yet in the corpus, as MCP clients over HTTP, driven
# through their own MCP client layer (connect, list tools, call tools through the framework's tool wrapper, close as
# the framework closes), no model anywhere. Servers: the official Python SDK (mcp 2.3.0, clients4/clients4_server.py:
# add, slow_count with progress, fail that raises), its legacy HTTP+SSE app where the framework offers that transport,
# and the official TS SDK server (1.32.2, ../proxies2/ts-server.mjs). Our code is only the harness and the drivers
# (clients4/*_client.*). Captured on loopback (127.0.0.1, ports 19990-20009):
#   praisonai-py        port 19990: praisonaiagents 1.7.17 MCP(URL) (its HTTPStreamMCPClient on the SDK's
#                       streamablehttp_client, mcp 1.30.0): tools listed, add, slow_count, fail called as the
#                       agent's callables, shutdown() -> Python SDK server
#   praisonai-ts        port 19991: the same -> TS SDK server
#   praisonai-sse       port 19992: the same with a URL ending in /sse (its SSEMCPClient) -> legacy HTTP+SSE app
#   haystack-toolset    port 19993: haystack-ai 3.4.1 + mcp-haystack 2.1.1 (mcp 2.3.0) MCPToolset(StreamableHttp
#                       ServerInfo).warm_up(), the three tools invoked through the toolset, close() -> Python server
#   haystack-tools      port 19994: three stand-alone MCPTool objects (add, slow_count, fail), each warm_up, invoke,
#                       close -> Python SDK server
#   haystack-sse        port 19995: MCPToolset(SSEServerInfo(/sse)) -> legacy HTTP+SSE app
#   beeai-py            port 19996: beeai-framework 0.1.85 (mcp 1.30.0) MCPTool.from_client(streamablehttp_client),
#                       tool.run() x3, tools dropped -> Python SDK server
#   voltagent-py        port 19997: @voltagent/core 2.10.0 (TS SDK 1.32.2) MCPConfiguration, server type "http"
#                       (Streamable HTTP with SSE fallback), getTools(), execute() x3, disconnect() -> Python server
#   voltagent-fallback  port 19998: the same, type "http", URL /sse -> legacy HTTP+SSE app (the fallback path)
#   llamaindex-py       port 19999: @llamaindex/tools 0.1.12 (TS SDK 1.32.2) mcp({url}).tools(), FunctionTool.call
#                       x3, cleanup() -> Python SDK server
#   llamaindex-sse      port 20000: the same with useSSETransport -> legacy HTTP+SSE app
#   agentkit-py         port 20001: @inngest/agent-kit 0.13.2 (TS SDK 1.32.2) createAgent({mcpServers}),
#                       initMCP(), tool handlers x3, process.exit -> Python SDK server
#   agentkit-sse        port 20002: the same with transport type "sse" -> legacy HTTP+SSE app
#   haystack-restart    port 20003: the haystack toolset: add, then (client paused 6 s) the Python SDK server is
#                       stopped and started again (its sessions are gone), add twice more, close()
#   voltagent-restart   port 20004: VoltAgent, type "http": the same restart between add and two more adds
# (port 20009 is never listened on.)
#
#   sudo bash samples/gen/ecosystem/clients4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients4.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients4-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients4-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0, the server), proxies2/node_modules (the TS SDK server's), clients4/
# node_modules (`npm ci` of clients4/package-lock.json) and one venv per Python framework, clients4/.venv-NAME from
# clients4/requirements-NAME.txt (pip freezes). All git-ignored (clients4/.gitignore).
# Results and labels: samples/ecosystem/clients4.md, samples/ecosystem/labels-clients4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients4"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients4
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model: nothing here sets an API key; telemetry off where a tool has a switch.
# NODE_ENV=production: @voltagent/core otherwise starts, on import, a refresh of its model registry from
# https://models.dev/api.json (a DNS lookup in a first trial, outside the captures).
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    PRAISONAI_TELEMETRY_DISABLED=true PRAISONAI_DISABLE_TELEMETRY=true HAYSTACK_TELEMETRY_ENABLED=False \
    INNGEST_DEV=0   # AgentKit's inngest: not the dev-server mode (it sends no event here either way)

SDKPY="$ECO/sdks/.venv/bin/python"
SERVER=("$SDKPY" "$W/clients4_server.py")              # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    local v
    for v in praisonai haystack beeai; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
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
        py)  begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients4-$name" ;;
        sse) begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients4-$name" --sse ;;
        ts)  begin "$name" "$port" "${TS_SERVER[@]}" "$port" ;;
    esac
    run "$name-client" "$@"
    end "$name"
}
PY_URL() { echo "http://$HOST:$1/mcp"; }
SSE_URL() { echo "http://$HOST:$1/sse"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_praisonai-py() { scenario praisonai-py 19990 py -- "$W/.venv-praisonai/bin/python" "$W/praisonai_client.py" "$(PY_URL 19990)"; }
scenario_praisonai-ts() { scenario praisonai-ts 19991 ts -- "$W/.venv-praisonai/bin/python" "$W/praisonai_client.py" "$(PY_URL 19991)"; }
scenario_praisonai-sse() { scenario praisonai-sse 19992 sse -- "$W/.venv-praisonai/bin/python" "$W/praisonai_client.py" "$(SSE_URL 19992)"; }
scenario_haystack-toolset() { scenario haystack-toolset 19993 py -- "$W/.venv-haystack/bin/python" "$W/haystack_client.py" toolset "$(PY_URL 19993)"; }
scenario_haystack-tools() { scenario haystack-tools 19994 py -- "$W/.venv-haystack/bin/python" "$W/haystack_client.py" tools "$(PY_URL 19994)"; }
scenario_haystack-sse() { scenario haystack-sse 19995 sse -- "$W/.venv-haystack/bin/python" "$W/haystack_client.py" toolset-sse "$(SSE_URL 19995)"; }
scenario_beeai-py() { scenario beeai-py 19996 py -- "$W/.venv-beeai/bin/python" "$W/beeai_client.py" "$(PY_URL 19996)"; }
scenario_voltagent-py() { scenario voltagent-py 19997 py -- env -C "$W" node voltagent_client.mjs http "$(PY_URL 19997)"; }
scenario_voltagent-fallback() { scenario voltagent-fallback 19998 sse -- env -C "$W" node voltagent_client.mjs http "$(SSE_URL 19998)"; }
scenario_llamaindex-py() { scenario llamaindex-py 19999 py -- env -C "$W" node llamaindex_client.mjs "$(PY_URL 19999)"; }
scenario_llamaindex-sse() { scenario llamaindex-sse 20000 sse -- env -C "$W" node llamaindex_client.mjs "$(SSE_URL 20000)" sse; }
scenario_agentkit-py() { scenario agentkit-py 20001 py -- env -C "$W" node agentkit_client.mjs streamable-http "$(PY_URL 20001)"; }
scenario_agentkit-sse() { scenario agentkit-sse 20002 sse -- env -C "$W" node agentkit_client.mjs sse "$(SSE_URL 20002)"; }

# restart_scenario NAME PORT CLIENT-CMD...: the Python SDK server on PORT; the client (in the background, bounded)
# calls add and pauses 6 s; as soon as its log shows the first result the server is stopped (SIGINT) and started
# again; the client calls add twice more and closes.
restart_scenario() {
    local name=$1 port=$2 cpid; shift 2
    begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients4-$name-first"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    local i
    for i in $(seq 1 300); do grep -q '^add ->' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    server "$name-server2" "$port" "${SERVER[@]}" "$port" --name "clients4-$name-second"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-client: /" || true
    end "$name"
}
scenario_haystack-restart() { restart_scenario haystack-restart 20003 "$W/.venv-haystack/bin/python" "$W/haystack_client.py" restart "$(PY_URL 20003)"; }
scenario_voltagent-restart() { restart_scenario voltagent-restart 20004 env -C "$W" node voltagent_client.mjs http "$(PY_URL 20004)" restart; }

ALL=(praisonai-py praisonai-ts praisonai-sse haystack-toolset haystack-tools haystack-sse beeai-py voltagent-py
     voltagent-fallback llamaindex-py llamaindex-sse agentkit-py agentkit-sse haystack-restart voltagent-restart)

run_scenarios "tcpdump tshark ss node" -- "$@"

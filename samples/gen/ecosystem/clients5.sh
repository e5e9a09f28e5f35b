#!/usr/bin/env bash
# mcptap ecosystem corpus, group "clients5": MCP client libraries and agent frameworks not yet in the corpus, as MCP
# clients over HTTP, driven through their own MCP client layer (connect, list tools, call tools as the framework's
# tool wrapper does, close as the framework closes), no model anywhere. Servers: the official Python SDK (mcp 2.3.0,
# ../clients4/clients4_server.py: add, slow_count with progress, fail that raises), its legacy HTTP+SSE app, and the
# official TS SDK server (1.32.2, ../proxies2/ts-server.mjs). Our code is only the harness and the drivers
# (clients5/*_client.*). Captured on loopback (127.0.0.1, ports 20230-20249):
#   griptape-py         port 20230: griptape 1.13.0 MCPTool (mcp 1.30.0 streamablehttp_client): the tool is built
#                       (a session lists the tools), activities add, slow_count, fail invoked -> Python SDK server
#   griptape-ts         port 20231: the same -> TS SDK server
#   griptape-restart    port 20232: add, (client paused 6 s) the Python SDK server is stopped and started again (its
#                       sessions are gone), add three times more
#   camel-py            port 20233: camel-ai 0.2.90 MCPToolkit (mcp 1.30.0), config with only the URL (Streamable
#                       HTTP, falling back to HTTP+SSE on failure): connect, tools, add, slow_count, fail, disconnect
#                       -> Python SDK server
#   camel-fallback      port 20234: the same config with a URL ending in /sse -> legacy HTTP+SSE app (camel's own
#                       Streamable-then-SSE fallback)
#   camel-restart       port 20235: camel, the restart between add and three more adds
#   langroid-py         port 20236: langroid 0.69.16 MCP tools (fastmcp 2.14.7 Client, mcp 1.30.0): get_tools_async,
#                       then add, slow_count, fail, each call through a fresh client (langroid's default) -> Python server
#   langroid-ts         port 20237: one FastMCPClient with persist_connection=True, the same calls -> TS SDK server
#   langroid-restart    port 20238: the persistent client, the restart between add and three more adds
#   mcpclient-py        port 20239: npm mcp-client 1.13.1 (TS SDK 1.32.2) MCPClient: connect (httpStream),
#                       getAllTools, ping, add, slow_count, fail, close -> Python SDK server
#   mcpclient-restart   port 20240: mcp-client, the restart between add and three more adds
#   upsonic-py          port 20241: upsonic 0.77.3 MCPHandler (mcp 1.30.0 streamable_http_client): get_tools()
#                       (a temporary session), then execute() add, slow_count, fail (a persistent session), close()
#                       -> Python SDK server
#   upsonic-restart     port 20242: upsonic, the restart between add and three more adds
# (port 20249 is never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/clients5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients5.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients5-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients5-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0, the server), proxies2/node_modules (the TS SDK server's), clients5/
# node_modules (`npm ci` of clients5/package-lock.json) and one venv per Python framework, clients5/.venv-NAME from
# clients5/requirements-NAME.txt (pip freezes). All git-ignored (clients5/.gitignore).
# Results and labels: samples/ecosystem/clients5.md, samples/ecosystem/labels-clients5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model: nothing here sets an API key; telemetry off where a tool has a switch.
# langroid_client.py stands a dummy in for tiktoken's tokenizer (importing langroid downloads one otherwise).
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    ANONYMIZED_TELEMETRY=False CAMEL_TELEMETRY=false FASTMCP_SHOW_CLI_BANNER=false

SDKPY="$ECO/sdks/.venv/bin/python"
SERVER=("$SDKPY" "$ECO/clients4/clients4_server.py")   # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    local v
    for v in griptape camel langroid upsonic; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
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
        py)  begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients5-$name" ;;
        sse) begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients5-$name" --sse ;;
        ts)  begin "$name" "$port" "${TS_SERVER[@]}" "$port" ;;
    esac
    run "$name-client" "$@"
    end "$name"
}
PY_URL() { echo "http://$HOST:$1/mcp"; }
SSE_URL() { echo "http://$HOST:$1/sse"; }
GRIPTAPE=("$W/.venv-griptape/bin/python" "$W/griptape_client.py")
CAMEL=("$W/.venv-camel/bin/python" "$W/camel_client.py")
LANGROID=("$W/.venv-langroid/bin/python" "$W/langroid_client.py")
UPSONIC=("$W/.venv-upsonic/bin/python" "$W/upsonic_client.py")

# --------------------------------------------------------------------------------------------- scenarios
scenario_griptape-py() { scenario griptape-py 20230 py -- "${GRIPTAPE[@]}" "$(PY_URL 20230)"; }
scenario_griptape-ts() { scenario griptape-ts 20231 ts -- "${GRIPTAPE[@]}" "$(PY_URL 20231)"; }
scenario_camel-py() { scenario camel-py 20233 py -- "${CAMEL[@]}" "$(PY_URL 20233)" auto; }
scenario_camel-fallback() { scenario camel-fallback 20234 sse -- "${CAMEL[@]}" "$(SSE_URL 20234)" auto; }
scenario_langroid-py() { scenario langroid-py 20236 py -- "${LANGROID[@]}" "$(PY_URL 20236)" http; }
scenario_langroid-ts() { scenario langroid-ts 20237 ts -- "${LANGROID[@]}" "$(PY_URL 20237)" persist; }
scenario_upsonic-py() { scenario upsonic-py 20241 py -- "${UPSONIC[@]}" "$(PY_URL 20241)"; }
scenario_mcpclient-py() { scenario mcpclient-py 20239 py -- env -C "$W" node mcpclient_client.mjs "$(PY_URL 20239)"; }

# restart_scenario NAME PORT CLIENT-CMD...: the Python SDK server on PORT; the client (in the background, bounded)
# calls add and pauses 6 s; as soon as its log shows the first result the server is stopped (SIGINT) and started
# again; the client calls add three times more and closes.
restart_scenario() {
    local name=$1 port=$2 cpid; shift 2
    begin "$name" "$port" "${SERVER[@]}" "$port" --name "clients5-$name-first"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    local i
    for i in $(seq 1 300); do grep -q '^add ->' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    bg "$name-server2" "${SERVER[@]}" "$port" --name "clients5-$name-second"
    listening "$port"   # the socket table, not a probe (lib.sh server's wait_port would put a connection on the wire)
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-client: /" || true
    end "$name"
}
scenario_griptape-restart() { restart_scenario griptape-restart 20232 "${GRIPTAPE[@]}" "$(PY_URL 20232)" restart; }
scenario_camel-restart() { restart_scenario camel-restart 20235 "${CAMEL[@]}" "$(PY_URL 20235)" restart; }
scenario_langroid-restart() { restart_scenario langroid-restart 20238 "${LANGROID[@]}" "$(PY_URL 20238)" restart; }
scenario_mcpclient-restart() { restart_scenario mcpclient-restart 20240 env -C "$W" node mcpclient_client.mjs "$(PY_URL 20240)" restart; }

scenario_upsonic-restart() { restart_scenario upsonic-restart 20242 "${UPSONIC[@]}" "$(PY_URL 20242)" restart; }

ALL=(griptape-py griptape-ts griptape-restart camel-py camel-fallback camel-restart langroid-py langroid-ts
     langroid-restart mcpclient-py mcpclient-restart upsonic-py upsonic-restart)

run_scenarios "tcpdump tshark ss node" -- "$@"

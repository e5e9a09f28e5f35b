#!/usr/bin/env bash
# mcptap ecosystem corpus, group "clients3": real MCP client programs not yet in the corpus (command-line clients and
# a security scanner), each against the official Python SDK server (mcp 2.3.0, ../py_server.py: add, echo,
# slow_count) and, where it makes a difference, the official TS SDK server (1.32.2, ../proxies2/ts-server.mjs) or the
# Python SDK's legacy HTTP+SSE app. No model anywhere: these clients list and call tools by themselves. Our code is
# only the harness (start, stop, the clients' config files). Captured on loopback (127.0.0.1, ports 19930-19949):
#   mcpc-py         port 19930: Apify's mcpc 0.2.6 (npm @apify/mcpc; TS SDK 1.32.2 inside a background "bridge"
#                   process that holds the session): `connect`, `tools-list`, `tools-call add`, `tools-call
#                   slow_count`, `ping`, `close`, one CLI process per command -> Python SDK server
#   mcpc-ts         port 19931: the same commands -> TS SDK server
#   mcpc-sse        port 19938: the same commands, URL /sse -> the Python SDK's legacy HTTP+SSE app
#   mcpc-restart    port 19932: mcpc: connect, tools-call add; the Python SDK server is stopped and started again
#                   (its sessions are gone); tools-call add twice more (mcpc says the session expired), `restart`
#                   (mcpc's own command: a new session), tools-call add, close
#   agent-scan-py   port 19933: snyk-agent-scan 0.6.9 (PyPI; formerly mcp-scan, mcp 1.30.0) `inspect` of a config
#                   with one `type: http` server (no verification: nothing is sent to an analysis service; its
#                   --analysis-url points to the unused 127.0.0.1:19949 anyway) -> Python SDK server
#   agent-scan-ts   port 19934: the same -> TS SDK server
#   agent-scan-sse  port 19935: the same with `type: sse` -> the Python SDK's HTTP+SSE app (/sse)
#   mcp-cli-py      port 19936: chrishayuk's mcp-cli 0.20.1 (PyPI `mcp-cli`): `tools` and `cmd --tool add` with a
#                   server_config.json of one `url` server, two CLI processes (its MCP client is chuk-mcp 0.9.4,
#                   not the official SDK) -> Python SDK server
#   mcp-cli-ts      port 19937: the same -> TS SDK server
#
#   sudo bash samples/gen/ecosystem/clients3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/clients3.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/clients3-<scenario>.pcap, listings samples/gen/wire/ecosystem/clients3-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client command is bounded (timeout); every server is stopped after its scenario;
# a guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0, the server), proxies2/node_modules (the TS SDK server's), clients3/
# node_modules (`npm ci` of clients3/package-lock.json: @apify/mcpc 0.2.6) and one venv per Python client,
# clients3/.venv-NAME from clients3/requirements-NAME.txt (pip freezes). All git-ignored (clients3/.gitignore).
# Results and labels: samples/ecosystem/clients3.md, samples/ecosystem/labels-clients3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/clients3"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=clients3
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback, no model: nothing here sets an API key; telemetry off where a tool has a switch.
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1
# mcp-cli's LLM layer (chuk-llm) probes a local Ollama (127.0.0.1:11434) for models at start unless discovery is off;
# its Ollama address is pointed at our unused port 19949 as well, so nothing outside our ports is ever tried.
export CHUK_LLM_DISCOVERY_ENABLED=false CHUK_LLM_AUTO_DISCOVER=false CHUK_LLM_DISCOVERY_ON_STARTUP=false \
    CHUK_LLM_OLLAMA_DISCOVERY=false OLLAMA_HOST=http://127.0.0.1:19949 OLLAMA_BASE_URL=http://127.0.0.1:19949

SDKPY="$ECO/sdks/.venv/bin/python"
MCPC="$W/node_modules/.bin/mcpc"
PY_SERVER=("$SDKPY" "$ECO/py_server.py")                # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    need_venv "$W/.venv-agent-scan" "$W/requirements-agent-scan.txt" snyk-agent-scan
    need_venv "$W/.venv-mcp-cli" "$W/requirements-mcp-cli.txt" mcp-cli
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
# step NAME SECONDS CMD...: one bounded client command, its output appended to RUN/NAME-client.log.
step() {
    local name=$1 secs=$2; shift 2
    echo "\$ ${*##*/}" >>"$RUN/$name-client.log"
    timeout "$secs" "$@" >>"$RUN/$name-client.log" 2>&1 || echo "   ($name: ${1##*/} exited with $?)"
}

# mcpc NAME URL: the mcpc command sequence, its state (sessions, bridge logs) under RUN/mcpc-NAME.
mcpc_run() {
    local name=$1 url=$2
    export MCPC_HOME_DIR="$RUN/mcpc-$name"; rm -rf "$MCPC_HOME_DIR"
    step "$name" 30 "$MCPC" connect "$url" @c3
    step "$name" 30 "$MCPC" @c3 tools-list
    step "$name" 30 "$MCPC" @c3 tools-call add a:=1 b:=2
    step "$name" 30 "$MCPC" @c3 tools-call slow_count n:=3
    step "$name" 30 "$MCPC" @c3 ping
    step "$name" 30 "$MCPC" close @c3
}
mcpc_scenario() {
    local name=$1 port=$2; shift 2
    begin "$name" "$port" "$@"
    mcpc_run "$name" "http://$HOST:$port/mcp"
    end "$name"
}

# agent_scan NAME PORT TYPE URL-PATH SERVER-CMD...: snyk-agent-scan inspect of a one-server config.
agent_scan() {
    local name=$1 port=$2 type=$3 path=$4; shift 4
    local home="$RUN/home-$name"
    rm -rf "$home"; mkdir -p "$home"
    printf '{"mcpServers": {"clients3-%s": {"type": "%s", "url": "http://%s:%s%s"}}}\n' "$name" "$type" "$HOST" "$port" "$path" >"$home/mcp.json"
    begin "$name" "$port" "$@"
    step "$name" 60 env HOME="$home" "$W/.venv-agent-scan/bin/snyk-agent-scan" inspect --no-skills \
        --dangerously-run-mcp-servers --analysis-url "http://$HOST:19949/" --storage-file "$home/store" "$home/mcp.json"
    end "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_mcpc-py() { mcpc_scenario mcpc-py 19930 "${PY_SERVER[@]}" 19930 --name clients3-py; }
scenario_mcpc-ts() { mcpc_scenario mcpc-ts 19931 "${TS_SERVER[@]}" 19931; }
scenario_mcpc-sse() {
    begin mcpc-sse 19938 "${PY_SERVER[@]}" 19938 --name clients3-py-sse --sse
    mcpc_run mcpc-sse "http://$HOST:19938/sse"
    end mcpc-sse
}
scenario_mcpc-restart() {
    local name=mcpc-restart port=19932
    begin "$name" "$port" "${PY_SERVER[@]}" "$port" --name clients3-py-first
    export MCPC_HOME_DIR="$RUN/mcpc-$name"; rm -rf "$MCPC_HOME_DIR"
    step "$name" 30 "$MCPC" connect "http://$HOST:$port/mcp" @c3
    step "$name" 30 "$MCPC" @c3 tools-call add a:=1 b:=2
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    server "$name-server2" "$port" "${PY_SERVER[@]}" "$port" --name clients3-py-second
    step "$name" 30 "$MCPC" @c3 tools-call add a:=3 b:=4
    step "$name" 30 "$MCPC" @c3 tools-call add a:=5 b:=6
    step "$name" 30 "$MCPC" @c3 restart
    step "$name" 30 "$MCPC" @c3 tools-call add a:=7 b:=8
    step "$name" 30 "$MCPC" close @c3
    end "$name"
}
scenario_agent-scan-py()  { agent_scan agent-scan-py 19933 http /mcp "${PY_SERVER[@]}" 19933 --name clients3-py; }
scenario_agent-scan-ts()  { agent_scan agent-scan-ts 19934 http /mcp "${TS_SERVER[@]}" 19934; }
scenario_agent-scan-sse() { agent_scan agent-scan-sse 19935 sse /sse "${PY_SERVER[@]}" 19935 --name clients3-py-sse --sse; }
# mcp_cli NAME PORT SERVER-CMD...: mcp-cli `tools`, then `cmd --tool add`, with a one-server server_config.json.
mcp_cli() {
    local name=$1 port=$2 dir="$RUN/$1"; shift 2
    rm -rf "$dir"; mkdir -p "$dir"
    printf '{"mcpServers": {"c3": {"url": "http://%s:%s/mcp"}}}\n' "$HOST" "$port" >"$dir/server_config.json"
    begin "$name" "$port" "$@"
    step "$name" 60 env -C "$dir" HOME="$dir" "$W/.venv-mcp-cli/bin/mcp-cli" tools --server c3 --config-file server_config.json
    step "$name" 60 env -C "$dir" HOME="$dir" "$W/.venv-mcp-cli/bin/mcp-cli" cmd --server c3 --config-file server_config.json \
        --tool add --tool-args '{"a": 1, "b": 2}'
    end "$name"
}
scenario_mcp-cli-py() { mcp_cli mcp-cli-py 19936 "${PY_SERVER[@]}" 19936 --name clients3-py; }
scenario_mcp-cli-ts() { mcp_cli mcp-cli-ts 19937 "${TS_SERVER[@]}" 19937; }

ALL=(mcpc-py mcpc-ts mcpc-sse mcpc-restart agent-scan-py agent-scan-ts agent-scan-sse mcp-cli-py mcp-cli-ts)

run_scenarios "tcpdump tshark ss node" -- "$@"

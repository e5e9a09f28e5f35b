#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers5": npm MCP implementations with JSON-RPC and HTTP code of their own (no
# wrap of the official TypeScript SDK's transports): Effect's MCP servers and client, tmcp's HTTP+SSE transport.
# Driven by / driving the official SDKs (TypeScript @modelcontextprotocol/sdk 1.32.2, Python mcp 2.3.0). Cleartext
# HTTP/1.1, captured on loopback (127.0.0.1, ports 19630-19649 only).
#   - Effect 3: @effect/ai 0.37.0 McpServer.layerHttp (the JSON-RPC codec and the POST-only HTTP protocol of
#     @effect/rpc 0.76.2) on @effect/platform-node 0.108.2's NodeHttpServer (jsservers5/effect/server.mjs);
#   - tmcp's legacy HTTP+SSE transport @tmcp/transport-sse 0.6.0 (tmcp 1.20.0 is in the js-sdks group with its
#     Streamable HTTP transport only; jsservers5/tmcp-sse/server.mjs);
#   - Effect 4: effect 4.1.5 `effect/ai` McpServer.layerHttp (Streamable HTTP of its own, protocol adapters
#     2024-11-05 .. 2026-07-28) on @effect/platform-node 4.1.5 (jsservers5/effect4/server.mjs), and effect 4.1.5's
#     McpClient.layerHttp over FetchHttpClient (jsservers5/effect4/client.mjs).
#
#   sudo bash samples/gen/ecosystem/jsservers5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/jsservers5.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/jsservers5-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/jsservers5-<scenario>.pcap.txt), port, what runs:
#   effect3-py        19630  Effect 3 server <- the Python SDK client (../proxies2/py_client.py --slow 3: legacy mode)
#   effect3-ts        19631  Effect 3 server <- the TypeScript SDK client (../proxies2/ts_client.mjs, slow_count 3)
#   effect4-py        19632  Effect 4 server, mode stateful (2025-11-25/06-18/03-26, sessions, DELETE allowed) <- the
#                            Python SDK client (../proxies2/py_client.py --slow 3)
#   effect4-ts        19633  the same server <- the TypeScript SDK client (../proxies2/ts_client.mjs 3)
#   effect4-py-auto   19634  Effect 4 server, mode both (sessionless 2026-07-28 beside sessionful 2025-11-25) <- the
#                            Python SDK client in its default mode (../relays/py_client.py --mode auto: server/discover
#                            first), then the TypeScript SDK client (2025-11-25 initialize) on the same server
#   effect4-restart   19635  Effect 4 server, mode stateful, restarted under a live session: the TS SDK client
#                            ../jsservers4/restart_client.mjs (initialize, tools/list, add; 4 s idle; add, echo, DELETE
#                            with the old session id); 1.5 s in, the server gets SIGTERM and a new one is started
#                            (restart_scenario below)
#   effect4-modern    19638  Effect 4 server, mode modern (sessionless 2026-07-28 only) <- the TypeScript SDK client
#                            (../proxies2/ts_client.mjs: a 2025-11-25 initialize), then the Python SDK client in legacy
#                            mode (../relays/py_client.py --mode legacy): both initializes are refused (400, -32020)
#   tmcp-sse          19639  tmcp 1.20.0 with @tmcp/transport-sse 0.6.0 (the legacy HTTP+SSE transport: GET /sse, POST
#                            /message?session_id=) on @hono/node-server (jsservers5/tmcp-sse/server.mjs) <- the Python
#                            SDK sse_client (../proxies2/py_client.py --sse --slow 3), then the TypeScript SDK
#                            SSEClientTransport (../jsservers4/ts_client.mjs sse)
#   client4-py        19636  Effect 4 McpClient, McpProtocol.v2025_11_25 -> the Python SDK server (../py_server.py,
#                            streamable_http_app defaults: stateful, SSE replies)
#   client4-py-modern 19637  Effect 4 McpClient, McpProtocol.v2026_07_28 -> the same Python SDK server
#   client4-restart   19640  Effect 4 McpClient (2025-11-25, 4 s idle after add(1,2)) -> the Python SDK server, which is
#                            restarted (SIGTERM, started again) during the idle time
#
# Every client run is bounded (timeout 60 here; 30-40 s guards inside the clients; 10-20 s per request). Each server
# is up before its capture starts (its port seen listening in the socket table, no probe) and stopped after it.
# Offline: DO_NOT_TRACK=1, NO_UPDATE_NOTIFIER=1 (neither Effect nor the SDKs phone home; the guard checks it: a
# tcpdump on every interface of anything that is not loopback to loopback, lib.sh guard_start/guard_stop).
#
# Needs root (tcpdump), tcpdump, tshark (the listing: ../nonmcp3/wire.py), ss, python3 with venv, node 20 + npm
# (@effect/platform-node 4.1.5 declares node >= 22.19 but runs on 20.20.2 for this). First use makes sdks/.venv,
# proxies2/node_modules, jsservers4/node_modules (the restart client's SDK) and jsservers5/{effect,effect4,tmcp-sse}/node_modules
# (`npm ci` from their package-lock.json), all git-ignored. Results and labels: samples/ecosystem/jsservers5.md,
# samples/ecosystem/labels-jsservers5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/jsservers5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=jsservers5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
export DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")      # URL [--sse] [--slow N]
PY_AUTO=("$SDKPY" "$ECO/relays/py_client.py")           # URL --mode legacy|auto
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N]
EFFECT3=(node "$W/effect/server.mjs")                   # PORT
EFFECT4=(node "$W/effect4/server.mjs")                  # PORT MODE
CLIENT4=(node "$W/effect4/client.mjs")                  # URL PROTOCOL
TMCP_SSE=(node "$W/tmcp-sse/server.mjs")               # PORT
PYSDK_SERVER=("$SDKPY" "$ECO/py_server.py")             # PORT --name NAME

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$ECO/jsservers4"
    need_npm "$W/effect"
    need_npm "$W/effect4"
    need_npm "$W/tmcp-sse"
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-RUN...: guard on, the server up on PORT (seen listening), capture of
# PORT, the client runs one after the other (each a command line; `|` separates them), capture stop and listing,
# everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=() cmd=() i=0
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 1
    capture_start "$name" "$port"
    while [ $# -gt 0 ]; do
        cmd=()
        while [ $# -gt 0 ] && [ "$1" != "|" ]; do cmd+=("$1"); shift; done
        [ $# -gt 0 ] && shift
        i=$((i + 1))
        run "$name-client$i" "${cmd[@]}"
        sleep 0.5
    done
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -4 | sed "s/^/   server: /" || true
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

U() { echo "http://$HOST:$1/mcp"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_effect3-py() {
    scenario effect3-py 19630 "${EFFECT3[@]}" 19630 -- "${PY_CLIENT[@]}" "$(U 19630)" --slow 3
}
scenario_effect3-ts() {
    scenario effect3-ts 19631 "${EFFECT3[@]}" 19631 -- "${TS_CLIENT[@]}" "$(U 19631)" 3
}
scenario_effect4-py() {
    scenario effect4-py 19632 "${EFFECT4[@]}" 19632 stateful -- "${PY_CLIENT[@]}" "$(U 19632)" --slow 3
}
scenario_effect4-ts() {
    scenario effect4-ts 19633 "${EFFECT4[@]}" 19633 stateful -- "${TS_CLIENT[@]}" "$(U 19633)" 3
}
scenario_effect4-py-auto() {
    scenario effect4-py-auto 19634 "${EFFECT4[@]}" 19634 both -- "${PY_AUTO[@]}" "$(U 19634)" --mode auto \
        "|" "${TS_CLIENT[@]}" "$(U 19634)" 3
}
# restart_scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: the server up, guard and capture on; the client (idle 4 s
# after its first tool call) runs in the background; 1.5 s in, the server's process group gets SIGTERM, and once its
# port has left the socket table (no probe) the same server command is started again (in-memory sessions gone) and
# seen listening; then the client is waited for (timeout 60 and its own guard bound it).
restart_scenario() {
    local name=$1 port=$2 cpid srv
    shift 2
    local cmd=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${cmd[@]}"; srv=$LAST_PID
    listening "$port"
    sleep 1
    capture_start "$name" "$port"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 1.5
    stop "$srv"
    free "$port"
    bg "$name-server" "${cmd[@]}"
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    sed "s/^/   $name-client: /" "$RUN/$name-client.log" | cut -c1-150 | tail -15
    sleep 0.5
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
}
# Effect 4's server restarted under the TS SDK client (../jsservers4/restart_client.mjs: initialize, tools/list, add;
# 4 s idle; add, echo and DELETE with the old session id, no re-initialize).
scenario_effect4-restart() {
    restart_scenario effect4-restart 19635 "${EFFECT4[@]}" 19635 stateful -- \
        node "$ECO/jsservers4/restart_client.mjs" "$(U 19635)" 4
}
# The Python SDK server restarted under Effect 4's client (2025-11-25; 4 s idle after add(1,2)).
scenario_client4-restart() {
    restart_scenario client4-restart 19640 "${PYSDK_SERVER[@]}" 19640 --name 'pysdk-{port}' -- \
        "${CLIENT4[@]}" "$(U 19640)" 2025-11-25 4
}
scenario_effect4-modern() {
    scenario effect4-modern 19638 "${EFFECT4[@]}" 19638 modern -- "${TS_CLIENT[@]}" "$(U 19638)" 3 \
        "|" "${PY_AUTO[@]}" "$(U 19638)" --mode legacy
}
scenario_tmcp-sse() {
    scenario tmcp-sse 19639 "${TMCP_SSE[@]}" 19639 -- "${PY_CLIENT[@]}" "http://$HOST:19639/sse" --sse --slow 3 \
        "|" node "$ECO/jsservers4/ts_client.mjs" sse "http://$HOST:19639/sse" 3
}
scenario_client4-py() {
    scenario client4-py 19636 "${PYSDK_SERVER[@]}" 19636 --name 'pysdk-{port}' -- "${CLIENT4[@]}" "$(U 19636)" 2025-11-25
}
scenario_client4-py-modern() {
    scenario client4-py-modern 19637 "${PYSDK_SERVER[@]}" 19637 --name 'pysdk-{port}' -- "${CLIENT4[@]}" "$(U 19637)" 2026-07-28
}

ALL=(effect3-py effect3-ts effect4-py effect4-ts effect4-py-auto effect4-restart effect4-modern tmcp-sse client4-py client4-py-modern client4-restart)

run_scenarios "tcpdump tshark ss node npm python3" -- "$@"

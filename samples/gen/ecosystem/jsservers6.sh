#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers6": npm MCP server helpers with HTTP routes and session handling of their
# own: litemcp 0.9.0 (mcp-proxy 2.14.3's legacy HTTP+SSE server) and @smithery/sdk 2.1.0's createStatefulServer / createStatelessServer (Express 5.3.0 routes for POST/GET/DELETE
# /mcp, a session store of its own (an LRU, default 1000 transports), its own 400/404/405 answers, around the official
# TypeScript SDK 1.32.2 StreamableHTTPServerTransport and McpServer; jsservers6/smithery/server.mjs). Driven by the
# official SDK clients (TypeScript @modelcontextprotocol/sdk 1.32.2, Python mcp 2.3.0). Cleartext HTTP/1.1, captured
# on loopback (127.0.0.1, ports 20070-20089 only).
#
#   sudo bash samples/gen/ecosystem/jsservers6.sh             # every scenario
#   sudo bash samples/gen/ecosystem/jsservers6.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/jsservers6-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/jsservers6-<scenario>.pcap.txt), port, what runs:
#   stateful-py     20070  createStatefulServer <- the Python SDK client (../proxies2/py_client.py --slow 3: legacy
#                          mode, GET stream, progress, DELETE)
#   stateful-ts     20071  createStatefulServer <- the TypeScript SDK client (../proxies2/ts_client.mjs, slow_count 3)
#   stateful-auto   20072  createStatefulServer <- the Python SDK client in its default mode "auto" (a server/discover
#                          probe first; ../servers4/py_driver.py http, calls fail() and add(2,3))
#   stateless-py    20073  createStatelessServer <- the Python SDK client (../proxies2/py_client.py --slow 3)
#   stateless-ts    20074  createStatelessServer <- the TypeScript SDK client (../proxies2/ts_client.mjs 3)
#   stateless-auto  20075  createStatelessServer <- the Python SDK client, mode auto (../servers4/py_driver.py http)
#   litemcp-sse     20077  litemcp 0.9.0 SSE mode (mcp-proxy 2.14.3 startSSEServer: GET /sse, POST /messages?sessionId=;
#                          jsservers6/litemcp/server.mjs) <- the Python SDK sse_client (../proxies2/py_client.py --sse
#                          --slow 3), then the TypeScript SDK SSEClientTransport (../jsservers4/ts_client.mjs sse), then
#                          the Python SDK sse_client calling fail() and an unknown tool (../servers4/py_driver.py sse)
#   litemcp-concurrent 20078  the same litemcp server <- two concurrent TS SDK SSEClientTransport sessions from one
#                          process (jsservers6/litemcp/concurrent_client.mjs): B's GET /sse while A's stream is open
#   evict           20076  createStatefulServer with createLRUStore(1) <- two TS SDK sessions from one process
#                          (jsservers6/smithery/evict_client.mjs): A, then B evicts A; A's next POST and A's DELETE
#
# Every client run is bounded (timeout 60 here; 30-40 s guards inside the clients; 10-20 s per request). Each server
# is up before its capture starts (its port seen listening in the socket table, no probe) and stopped after it.
# Offline: DO_NOT_TRACK=1, NO_UPDATE_NOTIFIER=1 (the server helpers call nothing outside; the identity/JWKS helpers of
# @smithery/sdk that would are not used; the guard checks it: a tcpdump on every interface of anything that is not
# loopback to loopback, lib.sh guard_start/guard_stop).
#
# Needs root (tcpdump), tcpdump, tshark (the listing: ../nonmcp3/wire.py), ss, python3 with venv, node 20 + npm. First
# use makes sdks/.venv, proxies2/node_modules, servers4 (its Python driver uses sdks/.venv) and
# jsservers4/node_modules (the SSE TS client), jsservers6/{smithery,litemcp}/node_modules (`npm ci` from its package-lock.json), all git-ignored. Results and labels:
# samples/ecosystem/jsservers6.md, samples/ecosystem/labels-jsservers6.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/jsservers6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=jsservers6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
export DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")      # URL [--slow N]
PY_AUTO=("$SDKPY" "$ECO/servers4/py_driver.py" http)    # URL [--call TOOL JSON]...
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N]
SMITHERY=(node "$W/smithery/server.mjs")                # PORT stateful|stateless [STORE_MAX]
EVICT=(node "$W/smithery/evict_client.mjs")             # URL
LITEMCP=(node "$W/litemcp/server.mjs")                  # PORT

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$ECO/jsservers4"
    need_npm "$W/smithery"
    need_npm "$W/litemcp"
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
    port_up "$port"
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

# port_up PORT: the port seen listening in the socket table (127.0.0.1 or, for mcp-proxy, "::"), no probe; 30 s.
port_up() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ss -Hltn "sport = :$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
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
scenario_stateful-py() {
    scenario stateful-py 20070 "${SMITHERY[@]}" 20070 stateful -- "${PY_CLIENT[@]}" "$(U 20070)" --slow 3
}
scenario_stateful-ts() {
    scenario stateful-ts 20071 "${SMITHERY[@]}" 20071 stateful -- "${TS_CLIENT[@]}" "$(U 20071)" 3
}
scenario_stateful-auto() {
    scenario stateful-auto 20072 "${SMITHERY[@]}" 20072 stateful -- "${PY_AUTO[@]}" "$(U 20072)" \
        --call fail '{}' --call add '{"a":2,"b":3}'
}
scenario_stateless-py() {
    scenario stateless-py 20073 "${SMITHERY[@]}" 20073 stateless -- "${PY_CLIENT[@]}" "$(U 20073)" --slow 3
}
scenario_stateless-ts() {
    scenario stateless-ts 20074 "${SMITHERY[@]}" 20074 stateless -- "${TS_CLIENT[@]}" "$(U 20074)" 3
}
scenario_stateless-auto() {
    scenario stateless-auto 20075 "${SMITHERY[@]}" 20075 stateless -- "${PY_AUTO[@]}" "$(U 20075)" \
        --call fail '{}' --call add '{"a":2,"b":3}'
}
scenario_evict() {
    scenario evict 20076 "${SMITHERY[@]}" 20076 stateful 1 -- "${EVICT[@]}" "$(U 20076)"
}
scenario_litemcp-sse() {
    scenario litemcp-sse 20077 "${LITEMCP[@]}" 20077 -- "${PY_CLIENT[@]}" "http://$HOST:20077/sse" --sse --slow 3 \
        "|" node "$ECO/jsservers4/ts_client.mjs" sse "http://$HOST:20077/sse" 3 \
        "|" "$SDKPY" "$ECO/servers4/py_driver.py" sse "http://$HOST:20077/sse" --call fail '{}' --call nope '{}'
}
scenario_litemcp-concurrent() {
    scenario litemcp-concurrent 20078 "${LITEMCP[@]}" 20078 -- node "$W/litemcp/concurrent_client.mjs" "http://$HOST:20078/sse"
}

ALL=(stateful-py stateful-ts stateful-auto stateless-py stateless-ts stateless-auto evict litemcp-sse litemcp-concurrent)

run_scenarios "tcpdump tshark ss node npm python3" -- "$@"

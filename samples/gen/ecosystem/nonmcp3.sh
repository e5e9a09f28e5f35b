#!/usr/bin/env bash
# mcptap ecosystem corpus, group "nonmcp3": real traffic from libraries that look like MCP on the wire (JSON-RPC 2.0
# over HTTP POST, SSE streams with `id:` fields and Last-Event-ID reconnects, batching, a method named `ping`) but are
# not MCP, used as their docs show; and real MCP over WebSocket, a transport mcptap does not follow. Fully offline (a
# guard capture of all other traffic checks it), captured on loopback (127.0.0.1, ports 19430-19441 of the group's
# 19430-19449 only).
#
#   sudo bash samples/gen/ecosystem/nonmcp3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/nonmcp3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/nonmcp3-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   trpc             port 19430: tRPC v11 (@trpc/server standalone adapter, nonmcp3/js/trpc_server.mjs; @trpc/client
#                    with splitLink, nonmcp3/js/trpc_client.mjs): a query, a mutation, three queries batched by
#                    httpBatchLink (one GET), two mutations batched (one POST, one fails validation), an UNAUTHORIZED
#                    query, then a tracked() subscription over SSE (httpSubscriptionLink, EventSource from the
#                    `eventsource` package): ids 1..8, then the server's `return`
#   trpc-restart     port 19431: the subscription alone; after event 3 the script kills the tRPC server and starts it
#                    again 1 s later; the client reconnects and tRPC resumes after the last tracked id
#   gql-sse-distinct port 19432: graphql-sse (createHandler on node:http, nonmcp3/js/gql_server.mjs; createClient,
#                    nonmcp3/js/gql_client.mjs) in distinct connections mode: query, mutation, a subscription, two
#                    subscriptions at once, a query with a validation error
#   gql-sse-single   port 19433: the same in single connection mode (PUT reservation, one GET event stream, POSTs
#                    with the token, DELETE to stop an operation)
#   sse-reconnect    port 19434: better-sse (nonmcp3/js/sse_server.mjs) ends each GET /events stream after 3 events
#                    (ids 1, 2, 3 ...), the `eventsource` package's EventSource (nonmcp3/js/sse_client.mjs)
#                    reconnects with Last-Event-ID twice and closes after id 9
#   jayson           port 19435: jayson 5 HTTP server and client (nonmcp3/js/jayson_*.mjs): add, a `ping`
#                    notification (jayson's README example), a `ping` request, an error object, an unknown method,
#                    the README's batch
#   json-rpc-2       port 19436: json-rpc-2.0 (npm) on express (the README's server, nonmcp3/js/jrpc2_server.mjs) and
#                    its JSONRPCClient over fetch (nonmcp3/js/jrpc2_client.mjs): echo, a `log` notification (204), sum,
#                    a thrown error, an unknown method, a batch
#   fastapi-jsonrpc  port 19437: fastapi-jsonrpc 4.1.0 (the README's example1 + `ping` + `divide`,
#                    nonmcp3/fastapi_jsonrpc_server.py) and httpx (nonmcp3/fastapi_jsonrpc_client.py)
#   mcp-ws-py        port 19438: MCP over WebSocket, Python SDK 1.30.0 on both sides (mcp.server.websocket under
#                    Starlette + uvicorn, nonmcp3/ws_server.py; mcp.client.websocket, nonmcp3/ws_client.py)
#   mcp-ws-ts        port 19439: the same server with permessage-deflate off (uvicorn ws_per_message_deflate=False:
#                    its frames carry the JSON text as is), the TS SDK 1.32.2 WebSocketClientTransport
#                    (nonmcp3/js/ws_client.mjs, Node's WebSocket behind --experimental-websocket)
#   transmission     port 19440 (RPC; peer port 19441, bound to 127.0.0.1, never used): Debian's transmission-daemon 3.00
#                    (nonmcp3/transmission/settings.json: DHT, LPD, PEX, uTP, port forwarding and blocklist off) and
#                    transmission-remote (nonmcp3/transmission/client.sh): Transmission's own JSON RPC (method/arguments/
#                    tag, not JSON-RPC 2.0) with its X-Transmission-Session-Id 409 handshake
# Each client run is bounded (timeout 60 here, 15-30 s inside the clients).
#
# Needs root (tcpdump), tcpdump, tshark (nonmcp3/wire.py), python3 with venv, node 20 + npm. First use makes
# nonmcp3/.venv (nonmcp3/requirements.txt: fastapi-jsonrpc, httpx), nonmcp3/.venv-mcp1 (nonmcp3/requirements-mcp1.txt:
# mcp 1.30.0, the last SDK line with the WebSocket transport) and nonmcp3/js/node_modules (npm ci). All git-ignored
# (nonmcp3/.gitignore). The transmission scenario needs the Debian packages transmission-daemon and transmission-cli
# (`apt-get install -y transmission-daemon transmission-cli`; their postinst's start of the service is denied where
# policy-rc.d forbids it; if it did start, stop it: it is not part of any capture); the daemon runs as a foreground
# process of this script (-f) with its config and download folders under nonmcp3/run/transmission/ (relative paths,
# so none reaches the wire). Results and labels: samples/ecosystem/nonmcp3.md, samples/ecosystem/labels-nonmcp3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/nonmcp3"                                        # harness code, pins, venvs, node_modules
J="$W/js"
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=nonmcp3
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

NPY="$W/.venv/bin/python"                               # fastapi-jsonrpc 4.1.0, httpx; also runs wire.py
# NODE_ENV=production: how the servers are deployed; in development tRPC puts the stack trace (with file paths) into
# every error response.
MPY="$W/.venv-mcp1/bin/python"                          # mcp 1.30.0 (WebSocket transport), uvicorn, websockets
export NODE_ENV=production DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true NEXT_TELEMETRY_DISABLED=1 NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_venv "$W/.venv-mcp1" "$W/requirements-mcp1.txt"
    need_npm "$J"
}

# one NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that port, one
# bounded client run, stop, listing by nonmcp3/wire.py) inside a guard capture of every packet that is not
# 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1).
one() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=("$NPY" "$W/wire.py" "$port")
    free "$port"
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}
url() { echo "http://$HOST:$1${2:-}"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_trpc()             { one trpc 19430 node "$J/trpc_server.mjs" 19430 -- node "$J/trpc_client.mjs" "$(url 19430)"; }
scenario_gql-sse-distinct() { one gql-sse-distinct 19432 node "$J/gql_server.mjs" 19432 -- node "$J/gql_client.mjs" "$(url 19432 /graphql/stream)"; }
scenario_gql-sse-single()   { one gql-sse-single 19433 node "$J/gql_server.mjs" 19433 -- node "$J/gql_client.mjs" "$(url 19433 /graphql/stream)" --single; }
scenario_sse-reconnect()    { one sse-reconnect 19434 node "$J/sse_server.mjs" 19434 -- node "$J/sse_client.mjs" "$(url 19434 /events)" 9; }
scenario_jayson()           { one jayson 19435 node "$J/jayson_server.mjs" 19435 -- node "$J/jayson_client.mjs" 19435; }
scenario_json-rpc-2()       { one json-rpc-2 19436 node "$J/jrpc2_server.mjs" 19436 -- node "$J/jrpc2_client.mjs" "$(url 19436 /json-rpc)"; }
scenario_fastapi-jsonrpc()  { one fastapi-jsonrpc 19437 "$NPY" "$W/fastapi_jsonrpc_server.py" 19437 -- "$NPY" "$W/fastapi_jsonrpc_client.py" "$(url 19437 /api/v1/jsonrpc)"; }
scenario_mcp-ws-py()        { one mcp-ws-py 19438 "$MPY" "$W/ws_server.py" 19438 -- "$MPY" "$W/ws_client.py" "ws://$HOST:19438/ws"; }
scenario_mcp-ws-ts()        { one mcp-ws-ts 19439 "$MPY" "$W/ws_server.py" 19439 --no-deflate -- node --experimental-websocket "$J/ws_client.mjs" "ws://$HOST:19439/ws"; }

# The subscription alone; the client runs in the background; once it has logged event 3 (bounded: 10 s) the server is
# killed (TERM to its process group) and, 1 s later, started again on the same port (watched with ss, no probe
# connection); then the client is waited for (it ends at event 8, or after its own 20 s).
scenario_trpc-restart() {
    local name=trpc-restart port=19431 cli rc=0 i
    DESCRIBE=("$NPY" "$W/wire.py" "$port")
    free "$port"
    guard_start "$name"
    server "$name-server" "$port" node "$J/trpc_server.mjs" "$port"
    local srv=$LAST_PID
    capture_start "$name" "$port"
    timeout 60 node "$J/trpc_client.mjs" "$(url $port)" --subscribe-only >"$RUN/$name-client.log" 2>&1 &
    cli=$!
    for i in $(seq 1 100); do grep -q '^event 3 ' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "$srv"
    echo "   server killed after event 3"
    sleep 1
    bg "$name-server2" node "$J/trpc_server.mjs" "$port"
    listening "$port"
    echo "   server started again"
    wait "$cli" || rc=$?
    cut -c1-150 "$RUN/$name-client.log" | tail -20 | sed "s/^/   $name-client: /"
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# The daemon in the foreground, in nonmcp3/run/transmission (config copied fresh from nonmcp3/transmission/settings.json,
# which the daemon rewrites on exit); the client from the same folder.
scenario_transmission() {
    local d="$RUN/transmission"
    rm -rf "$d"; mkdir -p "$d/config"; cp "$W/transmission/settings.json" "$d/config/"
    (cd "$d" && one transmission 19440 transmission-daemon -f -g config -- bash "$W/transmission/client.sh" 19440)
}

ALL=(trpc trpc-restart gql-sse-distinct gql-sse-single sse-reconnect jayson json-rpc-2 fastapi-jsonrpc mcp-ws-py mcp-ws-ts
     transmission)

run_scenarios "tcpdump tshark node npm" -- "$@"

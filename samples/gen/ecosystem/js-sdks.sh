#!/usr/bin/env bash
# mcptap ecosystem corpus, group "js-sdks": real traffic from third-party JavaScript/TypeScript MCP servers whose HTTP
# handling is their own code (tmcp, mcp-lite, mcp-framework), each talking to the official TypeScript SDK client
# (@modelcontextprotocol/sdk 1.32.2), captured on loopback (ports 18700-18749 only).
#
#   sudo bash samples/gen/ecosystem/js-sdks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/js-sdks.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/js-sdks-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   tmcp                  tmcp server (@tmcp/transport-http, in-memory sessions, valibot adapter) on
#                         @hono/node-server <- TS SDK StreamableHTTPClientTransport (tmcp ships no client)
#   mcp-lite              mcp-lite server, stateless default (no adapters), Hono + @hono/node-server <- TS SDK client
#   mcp-lite-sessions     the same with InMemorySessionAdapter (session ids, SSE event ids, GET stream)
#   mcp-framework         mcp-framework HTTP Stream transport, defaults (responseMode "stream": SSE replies) <- TS SDK client
#   mcp-framework-batch   the same with responseMode "batch" (JSON replies)
#   mcp-framework-sse     mcp-framework SSE transport (GET /sse, POST /messages) <- TS SDK SSEClientTransport
#   fastmcp               FastMCP for TypeScript (npm fastmcp), httpStream transport, defaults (mcp-proxy's HTTP
#                         server, sessions) <- TS SDK client (fastmcp ships no client)
#   fastmcp-stateless     the same with httpStream.stateless: true
#   hono-mcp              @hono/mcp StreamableHTTPTransport + the SDK's McpServer, the README's setup (one transport,
#                         no sessionIdGenerator: stateless), Hono + @hono/node-server <- TS SDK client
#   hono-mcp-sessions     the same with a transport per session (sessionIdGenerator, @hono/mcp's MemoryEventStore)
#   mcp-handler           mcp-handler 2.x (Vercel; MCP SDK v2 server, stateless legacy fallback for 2025 clients) in
#                         a plain node:http server (@hono/node-server's serve, no framework) <- TS SDK client
#   ts2                   official TS SDK v2 (@modelcontextprotocol/server 2.x) createMcpHandler defaults in a plain
#                         node:http server <- TS SDK v2 client (@modelcontextprotocol/client 2.x, client-v2.mjs,
#                         versionNegotiation 'auto': server/discover probe, 2026-07-28 when the server offers it)
#   ts2-to-v1             TS SDK 1.x server (v1-server.mjs: StreamableHTTPServerTransport per session, stateful
#                         defaults) <- TS SDK v2 client, 'auto' (the probe is refused, fallback to initialize)
#   v1-to-ts2             the v2 server of ts2 <- the 1.x client (client.mjs streamable)
#
# Every client run: initialize (+ the standalone GET the TS client opens by default), tools/list, add(1,2),
# echo("hello"), slow_count(3) with a progressToken (3 notifications/progress 0.1 s apart), add(40,2), DELETE
# (terminateSession; not on HTTP+SSE), close. Each client run is bounded (timeout 60 here, 30 s guard and 15 s
# request timeouts inside the client).
# The v2 client (client-v2.mjs) runs the same calls after its connect (server/discover probe, then initialize only
# when it falls back) and sends DELETE only when it holds a session id.
#
# Needs root (tcpdump), node 20 + npm, tcpdump, tshark (describe.py), python3 (samples/gen/.venv for describe.py,
# created from samples/gen/requirements.txt if missing). First use runs `npm ci` in js-sdks/ (node_modules,
# git-ignored). Results and labels: samples/ecosystem/js-sdks.md, samples/ecosystem/labels-js-sdks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples, PY)
W="$ECO/js-sdks"                                        # harness code, pins, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, mcp-framework's (empty) base path
GROUP=js-sdks
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN" "$RUN/mcp-framework-empty"

setup() {
    need_venv "$GEN/.venv" "$GEN/requirements.txt"
    # Installed again whenever the lock file is newer than the install (a pin added since).
    need_npm "$W"
}

# scenario NAME PORT MODE PATH SERVER-CMD...: capture_run with the TS SDK client (client.mjs MODE URL).
scenario() {
    local name=$1 port=$2 mode=$3 path=$4; shift 4
    capture_run "$name" "$port" "$@" -- node "$W/client.mjs" "$mode" "http://$HOST:$port$path"
}

scenario_tmcp()                 { scenario tmcp 18700 streamable /mcp node "$W/tmcp-server.mjs" 18700; }
scenario_mcp-lite()             { scenario mcp-lite 18710 streamable /mcp node "$W/mcp-lite-server.mjs" 18710; }
scenario_mcp-lite-sessions()    { scenario mcp-lite-sessions 18711 streamable /mcp node "$W/mcp-lite-server.mjs" 18711 --sessions; }
scenario_mcp-framework()        { scenario mcp-framework 18720 streamable /mcp node "$W/mcp-framework-server.mjs" 18720 http-stream; }
scenario_mcp-framework-batch()  { scenario mcp-framework-batch 18721 streamable /mcp node "$W/mcp-framework-server.mjs" 18721 http-stream batch; }
scenario_mcp-framework-sse()    { scenario mcp-framework-sse 18722 sse /sse node "$W/mcp-framework-server.mjs" 18722 sse; }

scenario_fastmcp()              { scenario fastmcp 18730 streamable /mcp node "$W/fastmcp-server.mjs" 18730; }
scenario_fastmcp-stateless()    { scenario fastmcp-stateless 18731 streamable /mcp node "$W/fastmcp-server.mjs" 18731 --stateless; }
scenario_hono-mcp()             { scenario hono-mcp 18735 streamable /mcp node "$W/hono-mcp-server.mjs" 18735; }
scenario_hono-mcp-sessions()    { scenario hono-mcp-sessions 18736 streamable /mcp node "$W/hono-mcp-server.mjs" 18736 --sessions; }
scenario_mcp-handler()          { scenario mcp-handler 18740 streamable /mcp node "$W/mcp-handler-server.mjs" 18740; }

# scenario_v2 NAME PORT SERVER-CMD...: capture_run with the TS SDK v2 client (client-v2.mjs URL, path /mcp).
scenario_v2() {
    local name=$1 port=$2; shift 2
    capture_run "$name" "$port" "$@" -- node "$W/client-v2.mjs" "http://$HOST:$port/mcp"
}

scenario_ts2()                  { scenario_v2 ts2 18741 node "$W/ts2-server.mjs" 18741; }
scenario_ts2-to-v1()            { scenario_v2 ts2-to-v1 18742 node "$W/v1-server.mjs" 18742; }
scenario_v1-to-ts2()            { scenario v1-to-ts2 18743 streamable /mcp node "$W/ts2-server.mjs" 18743; }

ALL=(tmcp mcp-lite mcp-lite-sessions mcp-framework mcp-framework-batch mcp-framework-sse
     fastmcp fastmcp-stateless hono-mcp hono-mcp-sessions mcp-handler ts2 ts2-to-v1 v1-to-ts2)

run_scenarios "tcpdump tshark node npm" -- "$@"

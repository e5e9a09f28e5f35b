#!/usr/bin/env bash
# mcptap ecosystem corpus, group "devtools": real traffic of two widely used MCP tools not elsewhere in the corpus,
# captured on loopback (ports 18887-18898 only).
#   1. the official MCP Inspector (npm @modelcontextprotocol/inspector 2.12.0) in CLI mode (`inspector --cli URL
#      --transport http|sse --method ...`): every CLI invocation is its own client process and its own session.
#   2. Cloudflare's Agents SDK (npm agents, McpAgent on a Durable Object) under `wrangler dev --local` (workerd).
#
#   sudo bash samples/gen/ecosystem/devtools.sh             # every scenario
#   sudo bash samples/gen/ecosystem/devtools.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/devtools-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   inspector-ts    port 18887: TS SDK 1.32.2 server (devtools/ts-server.mjs: express 5, stateful README pattern,
#                   SSE replies) <- Inspector CLI, --transport http, five invocations in a row: tools/list,
#                   tools/call add a=1 b=2, tools/call echo text=hello, tools/call slow_count n=3 with
#                   --tool-metadata progressToken=..., tools/call add a=40 b=2
#   inspector-py    port 18888: Python SDK (mcp 2.3.0) MCPServer (../py_server.py: ../pysdk_tools.py tools,
#                   streamable_http_app defaults) under uvicorn <- the same five Inspector CLI invocations
#   inspector-sse   port 18889: TS SDK 1.32.2 legacy HTTP+SSE server (ts-server.mjs --sse: GET /sse, POST
#                   /messages) <- the same five invocations with --transport sse
#   cf-agents-mcp   port 18890 (wrangler's inspector 18891, not captured): Cloudflare Agents SDK McpAgent (devtools/worker/) under wrangler dev --local,
#                   McpAgent.serve('/mcp') <- TS SDK 1.32.2 client (../js-sdks/client.mjs' calls, devtools/client.mjs)
#   cf-agents-sse   port 18890: the same worker, McpAgent.serveSSE('/sse') <- TS SDK SSEClientTransport
#
# Needs root (tcpdump), node 20 + npm (wrangler is pinned to 4.85.0, which still runs on node 20: 4.88.0 and later need node 22; wrangler
# dev tries to fetch the Request.cf placeholder from workers.cloudflare.com and goes on without it when offline),
# tcpdump, tshark (describe.py), python3 (samples/gen/.venv for describe.py, the sdks group's venv
# sdks/.venv with mcp 2.3.0 for inspector-py). First use runs `npm ci` in devtools/ (node_modules, git-ignored).
# Every client run is bounded (timeout 60). Results and labels: samples/ecosystem/devtools.md,
# samples/ecosystem/labels-devtools.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples, PY)
W="$ECO/devtools"                                       # harness code, pins, node_modules
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the Inspector's catalog file
GROUP=devtools
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$GEN/.venv" "$GEN/requirements.txt"
    setup_pysdk
    need_npm "$W"
}

# The Inspector CLI, offline: its catalog file in RUN (not ~/.mcp-inspector), no telemetry.
INSPECTOR=(env MCP_CATALOG_PATH="$RUN/inspector-catalog.json" node "$W/node_modules/.bin/inspector" --cli)

# inspector_runs NAME URL TRANSPORT: the five CLI invocations, one after the other, each bounded (run: timeout 60).
inspector_runs() {
    local name=$1 url=$2 tr=$3
    run "$name-1-list" "${INSPECTOR[@]}" "$url" --transport "$tr" --method tools/list
    run "$name-2-add" "${INSPECTOR[@]}" "$url" --transport "$tr" --method tools/call --tool-name add --tool-arg a=1 b=2
    run "$name-3-echo" "${INSPECTOR[@]}" "$url" --transport "$tr" --method tools/call --tool-name echo --tool-arg text=hello
    run "$name-4-slow" "${INSPECTOR[@]}" "$url" --transport "$tr" --method tools/call --tool-name slow_count --tool-arg n=3 \
        --tool-metadata progressToken=inspector-progress-1
    run "$name-5-add" "${INSPECTOR[@]}" "$url" --transport "$tr" --method tools/call --tool-name add --tool-arg a=40 b=2
}

# inspector_scenario NAME PORT PATH TRANSPORT SERVER-CMD...
inspector_scenario() {
    local name=$1 port=$2 path=$3 tr=$4; shift 4
    server "$name-server" "$port" "$@"
    capture_start "$name" "$port"
    inspector_runs "$name" "http://$HOST:$port$path" "$tr"
    capture_stop "$name"
    cleanup
}

scenario_inspector-ts()  { inspector_scenario inspector-ts 18887 /mcp http node "$W/ts-server.mjs" 18887; }
scenario_inspector-py()  { inspector_scenario inspector-py 18888 /mcp http "$ECO/sdks/.venv/bin/python" "$ECO/py_server.py" 18888 --name devtools-py-server; }
scenario_inspector-sse() { inspector_scenario inspector-sse 18889 /sse sse node "$W/ts-server.mjs" 18889 --sse; }

# wrangler dev, offline: --local, no metrics, its inspector (devtools) port inside the sandbox's range; workerd itself
# binds 127.0.0.1:18890 (no proxy in front: the capture sees workerd's own HTTP).
WRANGLER=(env -C "$W/worker" WRANGLER_SEND_METRICS=false CI=1 node "$W/node_modules/.bin/wrangler" dev --local
    --ip "$HOST" --port 18890 --inspector-port 18891 --show-interactive-dev-session=false)
cf_scenario() {
    local name=$1 mode=$2 path=$3
    bg "$name-server" "${WRANGLER[@]}"
    wait_port 18890
    capture_start "$name" 18890
    run "$name-client" node "$W/client.mjs" "$mode" "http://$HOST:18890$path"
    capture_stop "$name"
    cleanup
}
scenario_cf-agents-mcp() { cf_scenario cf-agents-mcp streamable /mcp; }
scenario_cf-agents-sse() { cf_scenario cf-agents-sse sse /sse; }

ALL=(inspector-ts inspector-py inspector-sse cf-agents-mcp cf-agents-sse)

run_scenarios "tcpdump tshark node npm" -- "$@"

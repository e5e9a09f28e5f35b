#!/usr/bin/env bash
# mcptap ecosystem corpus, group "jsservers10": real MCP traffic of four npm MCP servers that serve HTTP themselves and
# were not in the corpus, talking to the official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2) and the
# official Python SDK client (mcp 2.3.0), on loopback only (127.0.0.1, ports 20670-20689), fully offline.
#
#   sudo bash samples/gen/ecosystem/jsservers10.sh             # every scenario (about 2 minutes)
#   sudo bash samples/gen/ecosystem/jsservers10.sh SCENARIO..  # some of them
#
# The servers (each package's source in node_modules was read before it was chosen; every one resolves the TS SDK
# 1.32.2 through its own ^ range, jsservers10/package-lock.json):
# - **howtocook-mcp** 0.2.2 (npm; the HowToCook recipe collection, bundled recipes, no network): `--transport http
#   --port N` is a bare node:http server of its own that answers /mcp (any method) with a NEW McpServer and a
#   *stateless* TS SDK StreamableHTTPServerTransport per request, CORS headers on every reply; `--transport sse` the
#   same server's GET /sse (SDK SSEServerTransport, endpoint `/messages?sessionId=`) and POST /messages. It binds every
#   address (no host option).
# - **mcp-server-code-runner** 0.1.8 (npm; by the author of the VS Code Code Runner extension): `--transport http
#   --port N`, an express 5 app: POST /mcp handled by ONE stateless StreamableHTTPServerTransport connected once at
#   start-up; GET and DELETE /mcp answered 405 by the app. Binds every address. The tool run-code runs node locally.
# - **@antv/mcp-server-chart** 0.9.10 (npm; AntV, Ant Group): `--transport streamable --host 127.0.0.1 --port N`, an
#   express 5 app: POST /mcp only, a new McpServer and a stateless transport with enableJsonResponse: true per request
#   (JSON replies, no SSE), cors; everything else express's 404 HTML. `--transport sse`: GET /sse (SDK
#   SSEServerTransport, endpoint /messages), POST /messages (unknown session: 404 text). The chart tools POST to
#   VIS_REQUEST_SERVER, here http://127.0.0.1:20689 (nothing listens: they fail on loopback).
# - **@ivotoby/openapi-mcp-server** 1.16.1 (npm; OpenAPI -> MCP tools): `--transport http --host 127.0.0.1 --port N`
#   is its OWN Streamable HTTP transport on node:http (not the SDK's): initialize answered with a session id, a POST
#   tools/list answered in its own POST reply, every other request answered `202` with its response written on the
#   session's GET stream; GET /mcp the stream, DELETE /mcp ends the session. The tools come from jsservers10/petstore.json
#   (two GET operations) with --api-base-url http://127.0.0.1:20689 (nothing listens); `--tools dynamic` gives its
#   three meta-tools instead (list-api-endpoints, get-api-endpoint-schema, invoke-api-endpoint).
#
# Scenarios (capture samples/ecosystem/jsservers10-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   htc-ts     howtocook http on 20670; TS client: tools/list, getRecipesByCategory, whatToEat, getRecipeById, nope.
#   htc-py     howtocook http on 20671; Python client in the SDK's default mode (auto), same calls.
#   htc-sse    howtocook sse on 20672: the Python SDK's legacy HTTP+SSE client on /sse, same calls.
#   ccr-ts     code-runner on 20673; TS client: tools/list, run-code twice (javascript), nope.
#   ccr-py     code-runner on 20674; Python client (auto), same calls.
#   antv-ts    antv streamable on 20675; TS client: tools/list, generate_pie_chart, generate_line_chart, nope.
#   antv-py    antv streamable on 20676; Python client (auto), same calls.
#   antv-sse   antv sse on 20677: the Python SDK's legacy HTTP+SSE client on /sse, then the TS client (Streamable
#              HTTP) on the same /sse URL; same calls.
#   ivo-ts     openapi-mcp-server on 20678; TS client: tools/list, lst-pets, get-pet, nope; DELETE at the end.
#   ivo-py     openapi-mcp-server on 20679; Python client (auto), same calls.
#   ivo-dyn    openapi-mcp-server --tools dynamic on 20680; TS client: list-api-endpoints, get-api-endpoint-schema,
#              invoke-api-endpoint.
# (port 20689 is never listened on: where tools that would call an API are sent; 20688 was used for a trial run
# outside any capture.)
#
# Each server is up before its capture starts (port seen in the socket table, no probe). Each client run is bounded
# (timeout 60; 50 s inside the client). Offline: DO_NOT_TRACK=1 and the settings above; cwd and HOME of every server
# are jsservers10/run/<scenario>; a guard capture on every interface (lib.sh guard_start/guard_stop) checks that
# nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../agentsjs/wire.py), ss, node >= 20 with npm, python3 (3.11).
# First use makes (git-ignored) jsservers10/node_modules (`npm ci --ignore-scripts`) and jsservers10/.venv
# (requirements.txt: mcp 2.3.0). Results and labels: samples/ecosystem/jsservers10.md,
# samples/ecosystem/labels-jsservers10.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/jsservers10"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=jsservers10
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

# lib.sh's free/listening watch 127.0.0.1:PORT only; howtocook and code-runner bind every address (no host option),
# so these versions watch every local address of the port (still the socket table, never a probe).
free() {
    local p i
    for p in "$@"; do
        for i in $(seq 1 150); do [ -z "$(ss -Hltn "sport = :$p")" ] && break; sleep 0.1; done
        [ -z "$(ss -Hltn "sport = :$p")" ] || echo "something still listens on port $p" >&2
    done
}
listening() {
    local i
    for i in $(seq 1 300); do [ -n "$(ss -Hltn "sport = :$1")" ] && return 0; sleep 0.1; done
    echo "nothing listens on port $1" >&2
    return 1
}

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1
PY="$W/.venv/bin/python"
NM="$W/node_modules"
DEAD=20689          # nothing listens here: where a tool that would call out is sent, to fail on loopback

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    [ -f "$NM/.package-lock.json" ] || (cd "$W" && npm ci --ignore-scripts --no-audit --no-fund)
}

# srv KIND PORT LOG: one server in the background (cwd and HOME RUN/<scenario>).
srv() {
    local dir="$RUN/$SCN"
    mkdir -p "$dir"
    case $1 in
        htc)     bg "$3" env -C "$dir" HOME="$dir" node "$NM/howtocook-mcp/build/index.js" --transport http --port "$2" ;;
        htcsse)  bg "$3" env -C "$dir" HOME="$dir" node "$NM/howtocook-mcp/build/index.js" --transport sse --port "$2" ;;
        ccr)     bg "$3" env -C "$dir" HOME="$dir" node "$NM/mcp-server-code-runner/dist/cli.js" --transport http --port "$2" ;;
        antv)    bg "$3" env -C "$dir" HOME="$dir" VIS_REQUEST_SERVER="http://$HOST:$DEAD/api/gpt-vis" \
                     node "$NM/@antv/mcp-server-chart/build/index.js" --transport streamable --host "$HOST" --port "$2" ;;
        antvsse) bg "$3" env -C "$dir" HOME="$dir" VIS_REQUEST_SERVER="http://$HOST:$DEAD/api/gpt-vis" \
                     node "$NM/@antv/mcp-server-chart/build/index.js" --transport sse --host "$HOST" --port "$2" ;;
        ivo|ivodyn)
                 local extra=(); [ "$1" = ivodyn ] && extra=(--tools dynamic)
                 bg "$3" env -C "$dir" HOME="$dir" node "$NM/@ivotoby/openapi-mcp-server/bin/mcp-server.js" \
                     --transport http --host "$HOST" --port "$2" --openapi-spec "$W/petstore.json" \
                     --api-base-url "http://$HOST:$DEAD" "${extra[@]}" ;;
    esac
}

# scenario NAME PORT KIND -- CLIENT... [-- CLIENT2...]: guard on, the server up, capture of its port, the client(s)
# one after the other, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2 kind=$3
    shift 3; [ "$1" = "--" ] && shift
    local cl=() cl2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cl+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    cl2=("$@")
    SCN=$name
    DESCRIBE=("$PY" "$ECO/agentsjs/wire.py" - "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$port"
    srv "$kind" "$port" "$name-server"; listening "$port"
    sleep 1
    capture_start "$name" "$port"
    timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
    if [ ${#cl2[@]} -gt 0 ]; then
        sleep 0.5
        timeout 60 "${cl2[@]}" >>"$RUN/$name-client.log" 2>&1 || echo "   (client 2 exited with $?)"
    fi
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-150 | sed "s/^/   client: /" || true
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

u() { echo "http://$HOST:$1/mcp"; }
TS=(node "$W/j10_client.mjs")
PYC=("$PY" "$ECO/jsservers8/j8_client.py")

scenario_htc-ts()   { scenario htc-ts 20670 htc -- "${TS[@]}" "$(u 20670)" "$W/steps-htc.json" A; }
scenario_htc-py()   { scenario htc-py 20671 htc -- "${PYC[@]}" "$(u 20671)" "$W/steps-htc.json" --tag P --mode auto; }
scenario_htc-sse()  { scenario htc-sse 20672 htcsse -- "${PYC[@]}" "http://$HOST:20672/sse" "$W/steps-htc.json" --tag S --sse; }
scenario_ccr-ts()   { scenario ccr-ts 20673 ccr -- "${TS[@]}" "$(u 20673)" "$W/steps-ccr.json" A; }
scenario_ccr-py()   { scenario ccr-py 20674 ccr -- "${PYC[@]}" "$(u 20674)" "$W/steps-ccr.json" --tag P --mode auto; }
scenario_antv-ts()  { scenario antv-ts 20675 antv -- "${TS[@]}" "$(u 20675)" "$W/steps-antv.json" A; }
scenario_antv-py()  { scenario antv-py 20676 antv -- "${PYC[@]}" "$(u 20676)" "$W/steps-antv.json" --tag P --mode auto; }
scenario_antv-sse() {
    scenario antv-sse 20677 antvsse -- "${PYC[@]}" "http://$HOST:20677/sse" "$W/steps-antv.json" --tag S --sse \
        -- "${TS[@]}" "http://$HOST:20677/sse" "$W/steps-antv.json" A
}
scenario_ivo-ts()   { scenario ivo-ts 20678 ivo -- "${TS[@]}" "$(u 20678)" "$W/steps-ivo.json" A; }
scenario_ivo-py()   { scenario ivo-py 20679 ivo -- "${PYC[@]}" "$(u 20679)" "$W/steps-ivo.json" --tag P --mode auto; }
scenario_ivo-dyn()  { scenario ivo-dyn 20680 ivodyn -- "${TS[@]}" "$(u 20680)" "$W/steps-ivodyn.json" A; }

ALL=(htc-ts htc-py htc-sse ccr-ts ccr-py antv-ts antv-py antv-sse ivo-ts ivo-py ivo-dyn)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

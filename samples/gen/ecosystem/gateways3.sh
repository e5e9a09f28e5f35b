#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways3": real MCP traffic through three MCP aggregators / gateways not yet in the
# corpus, both hops in one capture: client <-> gateway (the "front" port) and gateway <-> each upstream MCP server
# over HTTP, on loopback only (127.0.0.1, ports 19290-19309 only), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/gateways3-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mcp-hub  mcp-hub 4.2.1 (npm, ravitemer) on 19290, upstreams "py" (the Python SDK server, 19291) and "ts" (the TS
#            SDK 1.32.2 server, 19292), both Streamable HTTP (`"url"` in its config); its MCP endpoint /mcp is legacy
#            HTTP+SSE. Client A: the TS SDK client, SDK README fallback (POST /mcp first, then SSEClientTransport), tools
#            py__*; client B: the Python SDK client over sse_client, tools ts__*
#   magg     magg 1.3.0 (PyPI, FastMCP 3.4.11) `magg serve --http` on 19295, upstream "py" (the Python SDK server,
#            19296; `"uri"` in .magg/config.json; magg opens a new upstream session to every upstream it has for every
#            front request, so one upstream keeps the capture to a few hundred frames). Client A: the Python SDK
#            client (Streamable HTTP, legacy mode); client B: the TS SDK client (Streamable HTTP); both call py_*
#   civic    @civic/passthrough-mcp-server 0.12.1 (npm) on 19300, TARGET_SERVER_URL the Python SDK server on 19301
#            (a 1:1 passthrough, no tool renaming). Client A: the Python SDK client; client B: the TS SDK client; both
#            Streamable HTTP
#
# Every scenario: the upstream servers are up before the capture starts (port probed then); the gateway is started
# inside the capture (so its own upstream handshakes are on the wire) and watched for with `ss` (no probe). Client A
# and client B initialize and list tools one after the other, then run add(1,2), echo("hello A|B"),
# slow_count(3) (3 progress notifications upstream, a progressToken from the client), add(40,2) at the same time
# (ready/go files). Then client B closes; client A waits while the script restarts the Python upstream (SIGTERM,
# same port, a new process: the gateway's upstream session id is unknown to it) and calls add(2,3), echo("after
# restart A") and add(5,5) in the same front session, then closes. The gateway is stopped (SIGTERM) before the capture ends.
# Clients: gateways3/gw3_client.py (Python SDK 2.3.0, the sdks group's venv) and gateways3/gw3_client.mjs (TS SDK
# 1.32.2); upstreams: ../py_server.py (sdks/.venv) and ../proxies/ts-server.mjs (proxies/node_modules). A guard
# capture on every interface checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Offline: mcp-hub fetches its marketplace registry from the web at start unless its cache (under XDG_DATA_HOME) is
# fresh: the script writes a fresh one-entry cache into its own HOME/XDG dirs under gateways3/run first. magg:
# FASTMCP_CHECK_FOR_UPDATES=off, auto-reload off. mcp-hub and the civic passthrough listen on every interface (no
# option to bind 127.0.0.1); only loopback talks to them here.
#
# Needs root (tcpdump), tcpdump, tshark (agentsjs/wire.py), ss, node >= 20 with npm, python3 (3.11) and python3.12
# (magg 1.3.0 requires Python >= 3.12; found as python3.12 on PATH or pyenv's 3.12.*). First use makes
# gateways3/node_modules (npm ci from gateways3/package-lock.json: mcp-hub, the civic passthrough, the TS SDK client),
# proxies/node_modules, sdks/.venv and gateways3/.venv-magg (requirements-magg.txt), all git-ignored.
# Results and labels: samples/ecosystem/gateways3.md, samples/ecosystem/labels-gateways3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways3"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways3
DESCRIBE=()                                             # set per scenario: the listing needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, stop, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"
export FASTMCP_CHECK_FOR_UPDATES=off

python312() {
    local p
    for p in "$(command -v python3.12 || true)" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12.*/bin/python3.12; do
        [ -n "$p" ] && [ -x "$p" ] && "$p" --version >/dev/null 2>&1 && { echo "$p"; return 0; }
    done
    echo "magg needs python3.12 (not found)" >&2; return 1
}
setup() {
    setup_pysdk
    need_npm "$W"
    need_npm "$ECO/proxies"
    if [ ! -x "$W/.venv-magg/bin/magg" ]; then
        "$(python312)" -m venv "$W/.venv-magg" && "$W/.venv-magg/bin/pip" install -q -r "$W/requirements-magg.txt"
    fi
}

# listening_any PORT: lib.sh's `listening`, for a server bound to every interface (mcp-hub, the civic passthrough:
# `ss` lists them as *:PORT, which lib.sh's "src 127.0.0.1:PORT" filter does not match). Watches, does not probe.
listening_any() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ss -Hltn "sport = :$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

py_up() { bg "$1" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways3-py-server-{port}"; PY_PID=$LAST_PID; }
ts_up() { bg "$1" env -C "$ECO/proxies" node ts-server.mjs "$2"; }

# gateway_scenario NAME FRONT PYPORT TSPORT(- for none) CLIENT-A... -- CLIENT-B... (GATEWAY: the gateway command,
# GWENV: its environment, GWDIR: its working directory, set by the caller)
gateway_scenario() {
    local name=$1 front=$2 pyport=$3 tsport=$4 gw_pid a b ports=()
    shift 4
    local ca=() cb=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do ca+=("$1"); shift; done
    shift; cb=("$@")
    ports=("$front" "$pyport"); [ "$tsport" != "-" ] && ports+=("$tsport")
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" "${ports[@]}")
    guard_start "$name"
    free "${ports[@]}"
    py_up "$name-py" "$pyport"; wait_port "$pyport"
    [ "$tsport" != "-" ] && { ts_up "$name-ts" "$tsport"; wait_port "$tsport"; }
    capture_start "$name" "${ports[@]}"
    bg "$name-gateway" env -C "$GWDIR" "${GWENV[@]}" "${GATEWAY[@]}"
    gw_pid=$LAST_PID
    listening_any "$front"
    sleep 2                                             # the gateway's own upstream handshakes settle
    rm -f "$RUN"/"$name"-*.ready "$RUN/$name.go" "$RUN/$name.restart-go"
    timeout 60 "${ca[@]}" --ready-file "$RUN/$name-A.ready" --go-file "$RUN/$name.go" \
        --restart-ready-file "$RUN/$name-A.restart.ready" --restart-go-file "$RUN/$name.restart-go" \
        >"$RUN/$name-client-A.log" 2>&1 &
    a=$!
    for _ in $(seq 1 300); do [ -e "$RUN/$name-A.ready" ] && break; sleep 0.1; done
    timeout 60 "${cb[@]}" --ready-file "$RUN/$name-B.ready" --go-file "$RUN/$name.go" >"$RUN/$name-client-B.log" 2>&1 &
    b=$!
    for _ in $(seq 1 300); do [ -e "$RUN/$name-B.ready" ] && break; sleep 0.1; done
    touch "$RUN/$name.go"
    wait $b || echo "   (client B failed: see $RUN/$name-client-B.log)"
    for _ in $(seq 1 300); do [ -e "$RUN/$name-A.restart.ready" ] && break; sleep 0.1; done
    echo "   restarting the Python upstream on $pyport"
    stop "$PY_PID"
    free "$pyport"
    py_up "$name-py2" "$pyport"; listening "$pyport"
    sleep 0.5
    touch "$RUN/$name.restart-go"
    wait $a || echo "   (client A failed: see $RUN/$name-client-A.log)"
    sed "s/^/   /" "$RUN/$name-client-A.log" "$RUN/$name-client-B.log" | grep '^   \[' | cut -c1-160
    sleep 0.5
    stop "$gw_pid"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# ------------------------------------------------------------------------------------------------ mcp-hub
scenario_mcp-hub() {
    local home="$RUN/hub-home"
    rm -rf "$home"; mkdir -p "$home/data/mcp-hub/cache"
    "$SDKPY" - "$home/data/mcp-hub/cache/registry.json" <<'PY'
import json, sys, time
# a fresh one-entry marketplace cache: mcp-hub then does not fetch its registry from the web at start
json.dump({"registry": {"version": "offline", "generatedAt": 0, "totalServers": 1,
                        "servers": [{"id": "offline", "name": "offline", "description": "offline placeholder",
                                     "tags": [], "url": ""}]},
           "lastFetchedAt": int(time.time() * 1000), "serverDocumentation": {}}, open(sys.argv[1], "w"))
PY
    sed -e "s/PYPORT/19291/g" -e "s/TSPORT/19292/g" "$W/mcp-hub.json" >"$home/mcp-hub.json"
    GWDIR="$home"
    GWENV=(HOME="$home" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state" XDG_CONFIG_HOME="$home/config")
    GATEWAY=(node "$W/node_modules/mcp-hub/dist/cli.js" --port 19290 --config "$home/mcp-hub.json")
    gateway_scenario mcp-hub 19290 19291 19292 \
        node "$W/gw3_client.mjs" fallback "http://$HOST:19290/mcp" py__ A -- \
        "$SDKPY" "$W/gw3_client.py" --sse --prefix ts__ --tag B "http://$HOST:19290/mcp"
}

# --------------------------------------------------------------------------------------------------- magg
scenario_magg() {
    local dir="$RUN/magg"
    rm -rf "$dir"; mkdir -p "$dir/.magg"
    sed -e "s/PYPORT/19296/g" "$W/magg.json" >"$dir/.magg/config.json"
    GWDIR="$dir"
    GWENV=(HOME="$dir" MAGG_AUTO_RELOAD=false MAGG_LOG_LEVEL=INFO FASTMCP_CHECK_FOR_UPDATES=off)
    GATEWAY=("$W/.venv-magg/bin/magg" serve --http --host "$HOST" --port 19295 --no-banner)
    gateway_scenario magg 19295 19296 - \
        "$SDKPY" "$W/gw3_client.py" --prefix py_ --tag A "http://$HOST:19295/mcp" -- \
        node "$W/gw3_client.mjs" streamable "http://$HOST:19295/mcp" py_ B
}

# -------------------------------------------------------------------------------------------------- civic
scenario_civic() {
    GWDIR="$RUN"
    GWENV=(PORT=19300 "TARGET_SERVER_URL=http://$HOST:19301")
    # --stack-trace-limit=0: civic puts the JS error's `stack` into the JSON-RPC error it sends the client
    # (error.data.stack); without frames it holds only the message, not this machine's node_modules paths.
    GATEWAY=(node --stack-trace-limit=0 "$W/node_modules/@civic/passthrough-mcp-server/dist/cli.js")
    gateway_scenario civic 19300 19301 - \
        "$SDKPY" "$W/gw3_client.py" --tag A "http://$HOST:19300/mcp" -- \
        node "$W/gw3_client.mjs" streamable "http://$HOST:19300/mcp" "" B
}

ALL=(mcp-hub magg civic)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

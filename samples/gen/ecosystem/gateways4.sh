#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways4": real MCP traffic through two MCP aggregators / gateways from PyPI not yet
# in the corpus, every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <-> each upstream MCP
# server over HTTP, on loopback only (127.0.0.1, ports 19570-19589 only), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways4.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/gateways4-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   combiner        mcp-combiner 0.17.5 (PyPI, FastMCP 3.4.11) `mcp-combiner --mcp` on 19570 (it also opens an
#                   interactive-widget host on 19571, not used here), upstreams "py" (the Python SDK server, 19572) and
#                   "ts" (the TS SDK 1.32.2 server, 19573), both Streamable HTTP (`"url"` in servers.json); tools
#                   py_* and ts_*. Client A: the Python SDK client (Streamable HTTP, legacy mode) calls py_*; client B:
#                   the TS SDK client (Streamable HTTP) calls ts_*. The Python upstream is restarted mid-session.
#   combiner-stdio  mcp-combiner as above on 19575, upstreams "py" over stdio (gateways4/stdio_server.py, spawned by
#                   the combiner: no wire) and "ts" (the TS SDK server, 19577, Streamable HTTP). Client A: the TS SDK
#                   client calls ts_*; client B: the Python SDK client calls py_*. The TS upstream is restarted.
#   combiner-sse    mcp-combiner as above on 19582, upstream "py" the Python SDK server's legacy HTTP+SSE app (19584,
#                   `"transport": "sse"`, GET /sse). Client A: the Python SDK client, client B: the TS SDK client, both
#                   call py_*. The upstream is restarted.
#   combiner-health mcp-combiner as above on 19586 with its keepalive health check every 2 s and a reconnect after the
#                   first missed ping (MCP_COMBINER_HEALTH_INTERVAL=2, MCP_COMBINER_HEALTH_FAILURES=1; defaults 30 s and
#                   3), upstream "py" (the Python SDK server, 19588). Clients as in `combiner-sse`. The upstream is
#                   restarted and client A waits 8 s (not 1 s) before its next call, so the health check runs meanwhile.
#   combiner-health-ts  as combiner-health, on 19578, upstream "ts" (the TS SDK server, 19581), which is restarted;
#                   client A: the TS SDK client, client B: the Python SDK client, both call ts_*.
#   agw             agent-mcp-gateway 0.2.5 (PyPI, FastMCP 2.14.7): its front is stdio only (gateways4/agw_client.py,
#                   the Python SDK client, spawns it), so only its upstream hop is on the wire: "py" (the Python SDK
#                   server, 19580, Streamable HTTP). The client calls list_servers, get_server_tools and
#                   execute_tool(server=py, tool=add|echo|slow_count); the upstream is restarted mid-session.
#
# The upstream servers are up before the capture starts (port probed then); the gateway is started inside the capture
# (so its own upstream handshakes are on the wire) and watched for with `ss` (no probe). In the combiner scenarios
# client A and client B initialize and list tools one after the other, then run add(1,2), echo("hello A|B"),
# slow_count(3) (3 progress notifications upstream, a progressToken from the client), add(40,2) at the same time
# (ready/go files). Then client B closes; client A waits while the script restarts one HTTP upstream (SIGTERM, same
# port, a new process: the gateway's upstream session id is unknown to it), waits 1 s (combiner-health*: 8 s), and calls add(2,3),
# echo("after restart A") and add(5,5) in the same front session, then closes. The gateway is stopped (SIGTERM)
# before the capture ends. Clients: ../gateways3/gw3_client.py (Python SDK 2.3.0, the sdks group's venv, run from
# its path) and gateways4/gw4_client.mjs (TS SDK 1.32.2, a copy of gateways3's); upstreams: ../py_server.py
# (sdks/.venv) and ../proxies/ts-server.mjs (proxies/node_modules). A guard capture on every interface checks that
# nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Offline: FASTMCP_CHECK_FOR_UPDATES=off; each gateway runs with HOME in gateways4/run. mcp-combiner binds
# 127.0.0.1 (--host); agent-mcp-gateway has no listening socket.
#
# Needs root (tcpdump), tcpdump, tshark (agentsjs/wire.py), ss, node >= 20 with npm, python3 (3.11) and python3.12
# (both gateways require Python >= 3.12; found as python3.12 on PATH or pyenv's 3.12.*). First use makes
# gateways4/node_modules (npm ci from gateways4/package-lock.json: the TS SDK client), proxies/node_modules,
# sdks/.venv, gateways4/.venv-combiner (requirements-combiner.txt) and gateways4/.venv-agw (requirements-agw.txt), all
# git-ignored. Results and labels: samples/ecosystem/gateways4.md, samples/ecosystem/labels-gateways4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways4"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways4
DESCRIBE=()                                             # set per scenario: the listing needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, stop, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"
PYCLIENT="$ECO/gateways3/gw3_client.py"
export FASTMCP_CHECK_FOR_UPDATES=off

python312() {
    local p
    for p in "$(command -v python3.12 || true)" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12.*/bin/python3.12; do
        [ -n "$p" ] && [ -x "$p" ] && "$p" --version >/dev/null 2>&1 && { echo "$p"; return 0; }
    done
    echo "the gateways need python3.12 (not found)" >&2; return 1
}
setup() {
    setup_pysdk
    need_npm "$W"
    need_npm "$ECO/proxies"
    local v
    for v in combiner agw; do
        if [ ! -x "$W/.venv-$v/bin/python" ] || [ ! -f "$W/.venv-$v/.installed" ]; then
            "$(python312)" -m venv "$W/.venv-$v" && "$W/.venv-$v/bin/pip" install -q -r "$W/requirements-$v.txt" \
                && touch "$W/.venv-$v/.installed"
        fi
    done
}

# up KIND PORT NAME: an upstream server in the background (py: the Python SDK server, Streamable HTTP; pysse: its
# legacy HTTP+SSE app; ts: the TS SDK server); its pid in UP_PID[PORT].
declare -A UP_PID=() UP_KIND=()
up() {
    case $1 in
        py)    bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways4-py-server-{port}" ;;
        pysse) bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --sse --name "gateways4-py-sse-server-{port}" ;;
        ts)    bg "$3" env -C "$ECO/proxies" node ts-server.mjs "$2" ;;
    esac
    UP_PID[$2]=$LAST_PID; UP_KIND[$2]=$1
}

# combiner_scenario NAME FRONT RESTART-PORT CONFIG-JSON KIND:PORT... -- CLIENT-A... -- CLIENT-B...
# (the upstreams KIND:PORT are started before the capture; RESTART-PORT is the one restarted mid-session; GWENV: more
# environment for the combiner, RESTART_WAIT: seconds between the restarted upstream listening and client A's next call)
GWENV=()
RESTART_WAIT=1
combiner_scenario() {
    local name=$1 front=$2 rport=$3 config=$4 gw_pid a b ports=() ups=() u dir="$RUN/$1"
    shift 4
    while [ "$1" != "--" ]; do ups+=("$1"); shift; done; shift
    local ca=() cb=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do ca+=("$1"); shift; done
    shift; cb=("$@")
    ports=("$front"); for u in "${ups[@]}"; do ports+=("${u#*:}"); done
    DESCRIBE=("$SDKPY" "$W/wire.py" "${ports[@]}")
    rm -rf "$dir"; mkdir -p "$dir"
    printf '%s\n' "$config" >"$dir/servers.json"
    guard_start "$name"
    free "${ports[@]}" "$((front + 1))"
    for u in "${ups[@]}"; do up "${u%%:*}" "${u#*:}" "$name-${u%%:*}"; wait_port "${u#*:}"; done
    capture_start "$name" "${ports[@]}"
    bg "$name-gateway" env -C "$dir" HOME="$dir" FASTMCP_CHECK_FOR_UPDATES=off "${GWENV[@]}" \
        "$W/.venv-combiner/bin/mcp-combiner" --mcp --config "$dir/servers.json" --host "$HOST" --port "$front"
    gw_pid=$LAST_PID
    listening "$front"
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
    echo "   restarting the ${UP_KIND[$rport]} upstream on $rport"
    stop "${UP_PID[$rport]}"
    free "$rport"
    up "${UP_KIND[$rport]}" "$rport" "$name-${UP_KIND[$rport]}2"; listening "$rport"
    sleep "$RESTART_WAIT"
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

# ------------------------------------------------------------------------------------------------ combiner
scenario_combiner() {
    combiner_scenario combiner 19570 19572 \
        '{"servers": {"py": {"url": "http://127.0.0.1:19572/mcp"}, "ts": {"url": "http://127.0.0.1:19573/mcp"}}}' \
        py:19572 ts:19573 -- \
        "$SDKPY" "$PYCLIENT" --prefix py_ --tag A "http://$HOST:19570/mcp" -- \
        node "$W/gw4_client.mjs" streamable "http://$HOST:19570/mcp" ts_ B
}

scenario_combiner-stdio() {
    combiner_scenario combiner-stdio 19575 19577 \
        "{\"servers\": {\"py\": {\"command\": \"$SDKPY\", \"args\": [\"$W/stdio_server.py\", \"gateways4-py-stdio-server\"]}, \"ts\": {\"url\": \"http://127.0.0.1:19577/mcp\"}}}" \
        ts:19577 -- \
        node "$W/gw4_client.mjs" streamable "http://$HOST:19575/mcp" ts_ A -- \
        "$SDKPY" "$PYCLIENT" --prefix py_ --tag B "http://$HOST:19575/mcp"
}

scenario_combiner-sse() {
    combiner_scenario combiner-sse 19582 19584 \
        '{"servers": {"py": {"url": "http://127.0.0.1:19584/sse", "transport": "sse"}}}' \
        pysse:19584 -- \
        "$SDKPY" "$PYCLIENT" --prefix py_ --tag A "http://$HOST:19582/mcp" -- \
        node "$W/gw4_client.mjs" streamable "http://$HOST:19582/mcp" py_ B
}

scenario_combiner-health() {
    GWENV=(MCP_COMBINER_HEALTH_INTERVAL=2 MCP_COMBINER_HEALTH_FAILURES=1)
    RESTART_WAIT=8
    combiner_scenario combiner-health 19586 19588 \
        '{"servers": {"py": {"url": "http://127.0.0.1:19588/mcp"}}}' \
        py:19588 -- \
        "$SDKPY" "$PYCLIENT" --prefix py_ --tag A "http://$HOST:19586/mcp" -- \
        node "$W/gw4_client.mjs" streamable "http://$HOST:19586/mcp" py_ B
    GWENV=(); RESTART_WAIT=1
}

scenario_combiner-health-ts() {
    GWENV=(MCP_COMBINER_HEALTH_INTERVAL=2 MCP_COMBINER_HEALTH_FAILURES=1)
    RESTART_WAIT=8
    combiner_scenario combiner-health-ts 19578 19581 \
        '{"servers": {"ts": {"url": "http://127.0.0.1:19581/mcp"}}}' \
        ts:19581 -- \
        node "$W/gw4_client.mjs" streamable "http://$HOST:19578/mcp" ts_ A -- \
        "$SDKPY" "$PYCLIENT" --prefix ts_ --tag B "http://$HOST:19578/mcp"
    GWENV=(); RESTART_WAIT=1
}

# ---------------------------------------------------------------------------------------------------- agw
scenario_agw() {
    local name=agw port=19580 dir="$RUN/agw" a
    rm -rf "$dir"; mkdir -p "$dir"
    sed "s/PYPORT/$port/" "$W/agw-mcp.json" >"$dir/mcp.json"
    cp "$W/agw-rules.json" "$dir/rules.json"
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    up py "$port" "$name-py"; wait_port "$port"
    capture_start "$name" "$port"
    rm -f "$RUN/$name-A.restart.ready" "$RUN/$name.restart-go"
    env -C "$dir" HOME="$dir" GATEWAY_MCP_CONFIG="$dir/mcp.json" GATEWAY_RULES="$dir/rules.json" \
        GATEWAY_AUDIT_LOG="$dir/audit.jsonl" GATEWAY_DEFAULT_AGENT=default FASTMCP_CHECK_FOR_UPDATES=off \
        timeout 60 "$SDKPY" "$W/agw_client.py" \
        --restart-ready-file "$RUN/$name-A.restart.ready" --restart-go-file "$RUN/$name.restart-go" \
        "$W/.venv-agw/bin/agent-mcp-gateway" >"$RUN/$name-client-A.log" 2>&1 &
    a=$!
    for _ in $(seq 1 300); do [ -e "$RUN/$name-A.restart.ready" ] && break; sleep 0.1; done
    echo "   restarting the py upstream on $port"
    stop "${UP_PID[$port]}"
    free "$port"
    up py "$port" "$name-py2"; listening "$port"
    sleep 1
    touch "$RUN/$name.restart-go"
    wait $a || echo "   (client A failed: see $RUN/$name-client-A.log)"
    grep '^\[' "$RUN/$name-client-A.log" | cut -c1-160 | sed "s/^/   /"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

ALL=(combiner combiner-stdio combiner-sse combiner-health combiner-health-ts agw)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

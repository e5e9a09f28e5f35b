#!/usr/bin/env bash
# mcptap ecosystem corpus, group "relays": real MCP traffic through three kinds of intermediaries users put between MCP
# clients and servers, each from PyPI with its own defaults, in front of the official Python SDK server (mcp 2.3.0),
# fully offline, captured on loopback (127.0.0.1, ports 19060-19089 only) with both hops in every capture: client <->
# intermediary (the "front" port) and intermediary <-> server (the "backend" port).
#
#   sudo bash samples/gen/ecosystem/relays.sh             # every scenario
#   sudo bash samples/gen/ecosystem/relays.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/relays-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mitmproxy            19060 -> 19061: mitmproxy 11.0.2 `mitmdump --mode reverse:http://127.0.0.1:19061 -p 19060`
#                        with its defaults (it buffers every response body whole before sending it on) <- Python SDK
#                        2.3.0 client, legacy mode
#   mitmproxy-stream     19062 -> 19063: the same with `--set stream_large_bodies=1` (stream any body past 1 byte)
#   mitmproxy-sse-addon  19064 -> 19065: the same with `-s relays/mitm_stream_sse.py` (flow.response.stream = True for
#                        text/event-stream in the responseheaders hook: the workaround mitmproxy's own warning names)
#   mcpo                 19070 -> 19071: mcpo 0.0.20 (mcp 1.30.0 client) with relays/mcpo-streamable.json (one server,
#                        "type": "streamable-http") <- plain HTTP calls of its OpenAPI endpoints (relays/mcpo_client.py:
#                        GET /pysdk/openapi.json, POST /pysdk/add, /echo, /slow_count, /add); mcpo is started and
#                        stopped (SIGTERM) inside the capture, so its connect and shutdown are on the wire
#   mcpo-sse             19072 -> 19073: the same with relays/mcpo-sse.json ("type": "sse") -> the SDK's legacy
#                        HTTP+SSE app (GET /sse, POST /messages/?session_id=)
#   fastmcp-proxy        19080 -> 19081: FastMCP 4.1.6 `create_proxy(url)` served over Streamable HTTP
#                        (relays/fastmcp_proxy.py) <- Python SDK 2.3.0 client, legacy mode
#   fastmcp-proxy-sse    19082 -> 19083: the same proxy of the SDK's legacy HTTP+SSE app (url .../sse)
#   fastmcp-proxy-modern 19084 -> 19085: the fastmcp-proxy setup <- the Python SDK client in its default mode (auto:
#                        2026-07-28 first); the proxy mirrors the front's era on the backend
#
# Every MCP client run: initialize (legacy mode), tools/list, add(1,2), echo("hello"), slow_count(3) with a progress
# callback (a progressToken: 3 notifications/progress 0.1 s apart), add(40,2), 0.1 s apart, close
# (relays/py_client.py on ../pysdk_tools.py). Each request times out after 10 s, each client run after 30 s (60 here).
# The backend server is up before its capture starts (its port probed then, not during the capture); the intermediary
# is started after the capture starts and its port is watched with `ss` (no probe packets), so whatever it does on
# the backend from its first moment is in the capture; it is stopped with SIGTERM before the capture ends.
#
# Needs root (tcpdump), tcpdump, tshark (relays/wire.py, which imports replicas/wire.py by path), ss (iproute2),
# python3 (3.11) with venv. First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server and client)
# and one venv per intermediary relays/.venv-NAME from relays/requirements-NAME.txt (mitmproxy, mcpo, fastmcp), all
# git-ignored (relays/.gitignore). Results and labels: samples/ecosystem/relays.md, samples/ecosystem/labels-relays.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/relays"                                         # harness code, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, mitmproxy's confdir, the offline guard's captures
GROUP=relays
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the backend server and the MCP client; runs wire.py
RELAYS=(mitmproxy mcpo fastmcp)
# No network beyond loopback: FastMCP checks PyPI for a newer release when it prints its banner unless told not to.
export FASTMCP_CHECK_FOR_UPDATES=off

setup() {
    local r
    setup_pysdk
    for r in "${RELAYS[@]}"; do need_venv "$W/.venv-$r" "$W/requirements-$r.txt"; done
}

BACKEND=("$SDKPY" "$ECO/py_server.py" --name "relays-py-server-{port}")                    # BACKEND PORT [--sse]
CLIENT=("$SDKPY" "$W/py_client.py")                     # CLIENT URL [--mode auto]
MITMDUMP="$W/.venv-mitmproxy/bin/mitmdump"
MCPO="$W/.venv-mcpo/bin/mcpo"
FASTMCP_PY="$W/.venv-fastmcp/bin/python"

# stop_within PID SECONDS: SIGTERM to the process group started by bg; SIGKILL if it is still there after SECONDS.
stop_within() {
    local i
    kill -TERM -- "-$1" 2>/dev/null || true
    for i in $(seq 1 $(($2 * 10))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# relay NAME FRONT BACKEND BACKEND-ARGS -- RELAY-CMD... -- CLIENT-CMD...: the backend (BACKEND PORT BACKEND-ARGS, "-"
# for none) up on BACKEND before the capture; a capture of both ports; the intermediary (RELAY-CMD) started inside it
# and waited for with `listening FRONT`; one bounded client run; the intermediary stopped (SIGTERM, 10 s); capture
# stop, listing by relays/wire.py; everything down. A guard capture for the whole scenario keeps every packet that is
# not 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1): DNS, an update check, telemetry would show there. Its packets are listed
# as a warning, not a failure: another program's traffic on this machine (a package download) lands there too.
relay() {
    local name=$1 front=$2 backend=$3 bargs=$4 relay_pid
    shift 4; [ "${1:-}" = "--" ] && shift
    local cmd=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cmd+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$backend")
    guard_start "$name"
    free "$front" "$backend"
    if [ "$bargs" = "-" ]; then server "$name-backend" "$backend" "${BACKEND[@]}" "$backend"
    else server "$name-backend" "$backend" "${BACKEND[@]}" "$backend" "$bargs"; fi
    capture_start "$name" "$front" "$backend"
    bg "$name-relay" "${cmd[@]}"
    relay_pid=$LAST_PID
    listening "$front"
    run "$name-client" "$@"
    sleep 0.5
    stop_within "$relay_pid" 10
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# mitm FRONT BACKEND OPTION...: MITM=(the mitmdump command) in reverse-proxy mode, FRONT -> BACKEND, its confdir (the
# CA it makes at first start) in RUN, not in root's home.
mitm() {
    local front=$1 backend=$2; shift 2
    MITM=("$MITMDUMP" --mode "reverse:http://$HOST:$backend" --listen-host "$HOST" -p "$front" --set "confdir=$RUN/mitmproxy" "$@")
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_mitmproxy() {
    mitm 19060 19061
    relay mitmproxy 19060 19061 - -- "${MITM[@]}" -- "${CLIENT[@]}" "http://$HOST:19060/mcp"
}
scenario_mitmproxy-stream() {
    mitm 19062 19063 --set stream_large_bodies=1
    relay mitmproxy-stream 19062 19063 - -- "${MITM[@]}" -- "${CLIENT[@]}" "http://$HOST:19062/mcp"
}
scenario_mitmproxy-sse-addon() {
    mitm 19064 19065 -s "$W/mitm_stream_sse.py"
    relay mitmproxy-sse-addon 19064 19065 - -- "${MITM[@]}" -- "${CLIENT[@]}" "http://$HOST:19064/mcp"
}
scenario_mcpo() {
    relay mcpo 19070 19071 - -- "$MCPO" --host "$HOST" --port 19070 --config "$W/mcpo-streamable.json" \
        -- "$W/.venv-mcpo/bin/python" "$W/mcpo_client.py" "http://$HOST:19070/pysdk"
}
scenario_mcpo-sse() {
    relay mcpo-sse 19072 19073 --sse -- "$MCPO" --host "$HOST" --port 19072 --config "$W/mcpo-sse.json" \
        -- "$W/.venv-mcpo/bin/python" "$W/mcpo_client.py" "http://$HOST:19072/pysdk"
}
scenario_fastmcp-proxy() {
    relay fastmcp-proxy 19080 19081 - -- "$FASTMCP_PY" "$W/fastmcp_proxy.py" 19080 "http://$HOST:19081/mcp" \
        -- "${CLIENT[@]}" "http://$HOST:19080/mcp"
}
scenario_fastmcp-proxy-sse() {
    relay fastmcp-proxy-sse 19082 19083 --sse -- "$FASTMCP_PY" "$W/fastmcp_proxy.py" 19082 "http://$HOST:19083/sse" \
        -- "${CLIENT[@]}" "http://$HOST:19082/mcp"
}
scenario_fastmcp-proxy-modern() {
    relay fastmcp-proxy-modern 19084 19085 - -- "$FASTMCP_PY" "$W/fastmcp_proxy.py" 19084 "http://$HOST:19085/mcp" \
        -- "${CLIENT[@]}" "http://$HOST:19084/mcp" --mode auto
}

ALL=(mitmproxy mitmproxy-stream mitmproxy-sse-addon mcpo mcpo-sse fastmcp-proxy fastmcp-proxy-sse fastmcp-proxy-modern)

run_scenarios "tcpdump tshark ss" -- "$@"

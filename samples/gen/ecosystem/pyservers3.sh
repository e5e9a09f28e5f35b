#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers3": Python MCP servers with HTTP code of their own (no mount of the
# official SDK's transports), driven by the official clients. Captured on loopback (127.0.0.1, ports 19670-19689):
#   - **chuk-mcp-server** 0.26.1 (its own Streamable HTTP endpoint, chuk_mcp_server/endpoints/mcp.py, on Starlette
#     under uvicorn): SSE replies when Accept names text/event-stream, Mcp-Session-Id, GET stream, DELETE
#     (pyservers3/chuk_server.py);
#   - **arcade-mcp-server** 1.32.1 (`MCPApp(...).run(transport="http")`: its own Streamable HTTP transport,
#     arcade_mcp_server/transports/, a port of the SDK's design importing no MCP SDK, in a FastAPI worker under uvicorn;
#     the worker hard-codes json_response=True): tool names are prefixed with the app's name
#     (McptapPyservers3Arcade_Add ...) (pyservers3/arcade_server.py);
#   - **python-a2a** 0.5.10's MCP server (`python_a2a.mcp.FastMCP`, its own FastAPI app
#     python_a2a/mcp/transport/fastapi.py under uvicorn): JSON-RPC on `POST /`, no `initialize` method
#     (pyservers3/a2a_server.py).
#
#   sudo bash samples/gen/ecosystem/pyservers3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/pyservers3-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/pyservers3-<scenario>.pcap.txt):
#   chuk-py         port 19670: the Python SDK client (mcp 2.3.0, ../proxies2/py_client.py --slow 3) -> chuk /mcp
#   chuk-ts         port 19671: the TypeScript SDK client (1.32.2, ../proxies2/ts_client.mjs, slow_count 3) -> the same
#   chuk-restart-py port 19672: the Python SDK client (--slow 3 --hold 8) -> chuk /mcp; during the hold the server is
#                   stopped (SIGINT, then SIGKILL), its port seen free in the socket table, and started again: the
#                   last add(40,2) carries the old session id to the new process
#   chuk-restart-ts port 19675: the same with the TypeScript SDK client (slow_count 3, hold 8 s)
#   arcade-py       port 19676: the Python SDK client as ../pyservers2/py_client.py (tools by their Arcade names, then
#                   a tool that does not exist) -> Arcade /mcp
#   arcade-ts       port 19677: the TypeScript SDK client (../proxies2/ts_client.mjs): its add/echo/slow_count are
#                   no tools there and get JSON-RPC errors -> the same
#   arcade-restart-ts port 19678: as chuk-restart-ts, against Arcade (the TS client's tools are no tools there: the
#                   point is the restart)
#   a2a-py          port 19673: the Python SDK client (../proxies2/py_client.py --slow 3) -> python-a2a POST /
#   a2a-ts          port 19674: the TypeScript SDK client (../proxies2/ts_client.mjs) -> the same
#
# Each client run is bounded (timeout 60 here; 30-40 s inside the clients; 10-20 s per request). Each server is up
# before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. No network
# beyond 127.0.0.1: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true (chuk-mcp-server's optional OpenTelemetry is not
# installed anyway), ARCADE_USAGE_TRACKING=0 (arcade-mcp-server's usage report) and no ARCADE_API_KEY; a guard
# capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py, which imports ../replicas/wire.py by path), ss
# (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes pyservers3/.venv-chuk, .venv-arcade and
# .venv-a2a from pyservers3/requirements-{chuk,arcade,a2a}.txt, the sdks group's venv sdks/.venv (the Python SDK 2.3.0
# client; also runs wire.py) and proxies2/node_modules (`npm ci`, the TypeScript SDK client). All git-ignored. Results and labels:
# samples/ecosystem/pyservers3.md, samples/ecosystem/labels-pyservers3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/pyservers3"                                     # servers, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=pyservers3
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 ARCADE_USAGE_TRACKING=0
unset ARCADE_API_KEY

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")       # URL [--sse] [--slow N] [--hold S]
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N] [HOLD_S]
CHUK=("$W/.venv-chuk/bin/python" "$W/chuk_server.py")   # PORT
A2A=("$W/.venv-a2a/bin/python" "$W/a2a_server.py")      # PORT
ARCADE=("$W/.venv-arcade/bin/python" "$W/arcade_server.py")  # PORT
NAMED_CLIENT=("$SDKPY" "$ECO/pyservers2/py_client.py")  # URL TOOL=JSON...

setup() {
    setup_pysdk
    need_venv "$W/.venv-chuk" "$W/requirements-chuk.txt"
    need_venv "$W/.venv-a2a" "$W/requirements-a2a.txt"
    need_venv "$W/.venv-arcade" "$W/requirements-arcade.txt"
    need_npm "$ECO/proxies2"
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT (listening, no probe), capture of
# PORT, one bounded client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_chuk-py() {
    scenario chuk-py 19670 "${CHUK[@]}" 19670 -- "${PY_CLIENT[@]}" "$(U 19670 /mcp)" --slow 3
}
scenario_chuk-ts() {
    scenario chuk-ts 19671 "${CHUK[@]}" 19671 -- "${TS_CLIENT[@]}" "$(U 19671 /mcp)" 3
}
# chuk-restart-py/-ts: the client holds its session 8 s after slow_count (done about 1 s after the client starts);
# 4.5 s after the client starts the server is stopped, its port seen free, and the same server command started
# again; the client's last add(40,2) then reaches the new process.
# restart NAME PORT SERVER-CMD... -- CLIENT-CMD...: as scenario, but the client runs in the background and 4.5 s after
# it starts the server is stopped (SIGINT, then SIGKILL), its port seen free in the socket table, and the same server
# command started again.
restart() {
    local name=$1 port=$2 cpid
    shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 4.5
    down
    PIDS=()
    free "$port"
    echo "   server stopped, port free; starting it again"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}
scenario_chuk-restart-py() {
    restart chuk-restart-py 19672 "${CHUK[@]}" 19672 -- "${PY_CLIENT[@]}" "$(U 19672 /mcp)" --slow 3 --hold 8
}
scenario_chuk-restart-ts() {
    restart chuk-restart-ts 19675 "${CHUK[@]}" 19675 -- "${TS_CLIENT[@]}" "$(U 19675 /mcp)" 3 8
}
scenario_arcade-py() {
    scenario arcade-py 19676 "${ARCADE[@]}" 19676 -- "${NAMED_CLIENT[@]}" "$(U 19676 /mcp)" \
        'McptapPyservers3Arcade_Add={"a":1,"b":2}' 'McptapPyservers3Arcade_Echo={"text":"hello"}' \
        'McptapPyservers3Arcade_SlowCount={"n":3}' 'McptapPyservers3Arcade_Add={"a":40,"b":2}' 'nosuch={}'
}
scenario_arcade-ts() {
    scenario arcade-ts 19677 "${ARCADE[@]}" 19677 -- "${TS_CLIENT[@]}" "$(U 19677 /mcp)" 3
}
scenario_arcade-restart-ts() {
    restart arcade-restart-ts 19678 "${ARCADE[@]}" 19678 -- "${TS_CLIENT[@]}" "$(U 19678 /mcp)" 3 8
}
scenario_a2a-py() {
    scenario a2a-py 19673 "${A2A[@]}" 19673 -- "${PY_CLIENT[@]}" "$(U 19673 /)" --slow 3
}
scenario_a2a-ts() {
    scenario a2a-ts 19674 "${A2A[@]}" 19674 -- "${TS_CLIENT[@]}" "$(U 19674 /)" 3
}

ALL=(chuk-py chuk-ts chuk-restart-py chuk-restart-ts arcade-py arcade-ts arcade-restart-ts a2a-py a2a-ts)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

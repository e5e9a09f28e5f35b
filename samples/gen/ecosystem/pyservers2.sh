#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers2": Python servers that speak MCP with HTTP code of their own (no mount of
# the official SDK's ASGI app), driven by the official clients. Captured on loopback (127.0.0.1, ports 19550-19569):
#   - **Robyn** 0.88.0 (Rust/actix-backed Python web framework): `app.mcp` (robyn/mcp.py) registers POST /mcp only
#     and answers every message with a JSON object (pyservers2/robyn_server.py);
#   - **zeromcp** 1.10.3 (standard library only: http.server's ThreadingHTTPServer): Streamable HTTP on /mcp (JSON
#     replies, Mcp-Session-Id) and the legacy HTTP+SSE transport on /sse (pyservers2/zero_server.py);
#   - **LangGraph's dev server** (langgraph-cli 0.4.40 `langgraph dev`, langgraph-api 0.16.7 with
#     langgraph-runtime-inmem 0.36.7, under uvicorn): its /mcp endpoint (langgraph_api/api/mcp) offers each graph's
#     assistant as a tool; two graphs of plain Python functions (pyservers2/lg/graphs.py), no LLM.
#
#   sudo bash samples/gen/ecosystem/pyservers2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/pyservers2-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/pyservers2-<scenario>.pcap.txt):
#   robyn-py        port 19550: the Python SDK client (mcp 2.3.0, ../proxies2/py_client.py --slow 3) -> Robyn /mcp
#   robyn-ts        port 19551: the TypeScript SDK client (1.32.2, ../proxies2/ts_client.mjs, slow_count 3) -> the same
#   zero-py         port 19552: the Python SDK client (../proxies2/py_client.py --slow 3) -> zeromcp /mcp
#   zero-ts         port 19553: the TypeScript SDK client (../proxies2/ts_client.mjs) -> zeromcp /mcp
#   zero-sse-py     port 19554: the Python SDK client (../proxies2/py_client.py --sse --slow 3) -> zeromcp /sse
#   langgraph-py    port 19555: the Python SDK client (pyservers2/py_client.py: tools adder and echo, then a tool that
#                   does not exist) -> `langgraph dev` /mcp
#   langgraph-ts    port 19556: the TypeScript SDK client (../proxies2/ts_client.mjs: its echo is the echo graph, its
#                   add and slow_count are no tools there and get JSON-RPC errors) -> the same
#
# Each client run is bounded (timeout 60 here; 30-40 s inside the clients; 10-20 s per request). Each server is up
# before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. No network
# beyond 127.0.0.1: DO_NOT_TRACK=1, LANGGRAPH_CLI_NO_ANALYTICS=1 (langgraph-cli's usage report),
# LANGGRAPH_NO_VERSION_CHECK=true (langgraph-api's startup query of pypi.org for a newer release), LANGSMITH_TRACING=false
# and no LangSmith key (langgraph-api's metadata beacon runs only with a license or control-plane key); a guard
# capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py, which imports ../replicas/wire.py by path), ss
# (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes pyservers2/.venv (Robyn), .venv-zero and
# .venv-lg from pyservers2/requirements-{robyn,zero,langgraph}.txt, the sdks group's venv sdks/.venv (the Python
# SDK 2.3.0 client; also runs wire.py) and proxies2/node_modules (`npm ci`, the TypeScript SDK client). All
# git-ignored. Results and labels: samples/ecosystem/pyservers2.md, samples/ecosystem/labels-pyservers2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/pyservers2"                                     # servers, client, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=pyservers2
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 LANGGRAPH_CLI_NO_ANALYTICS=1 LANGGRAPH_NO_VERSION_CHECK=true \
    LANGSMITH_TRACING=false LANGCHAIN_TRACING_V2=false
unset LANGSMITH_API_KEY LANGCHAIN_API_KEY LANGGRAPH_CLOUD_LICENSE_KEY LANGSMITH_CONTROL_PLANE_API_KEY

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")       # URL [--sse] [--slow N]
LG_CLIENT=("$SDKPY" "$W/py_client.py")                  # URL TOOL=JSON...
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N]
ROBYN=("$W/.venv/bin/python" "$W/robyn_server.py")  # PORT from the environment
ZERO=("$W/.venv-zero/bin/python" "$W/zero_server.py")   # PORT

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements-robyn.txt"
    need_venv "$W/.venv-zero" "$W/requirements-zero.txt"
    need_venv "$W/.venv-lg" "$W/requirements-langgraph.txt" langgraph
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

# down: SIGINT to each server's process group, a second, then SIGKILL (Robyn's process stays up after SIGTERM: actix
# shuts its workers down gracefully, the Python process does not exit).
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_robyn-py() {
    scenario robyn-py 19550 env PORT=19550 "${ROBYN[@]}" -- "${PY_CLIENT[@]}" "$(U 19550 /mcp)" --slow 3
}
scenario_robyn-ts() {
    scenario robyn-ts 19551 env PORT=19551 "${ROBYN[@]}" -- "${TS_CLIENT[@]}" "$(U 19551 /mcp)" 3
}
scenario_zero-py() {
    scenario zero-py 19552 "${ZERO[@]}" 19552 -- "${PY_CLIENT[@]}" "$(U 19552 /mcp)" --slow 3
}
scenario_zero-ts() {
    scenario zero-ts 19553 "${ZERO[@]}" 19553 -- "${TS_CLIENT[@]}" "$(U 19553 /mcp)" 3
}
scenario_zero-sse-py() {
    scenario zero-sse-py 19554 "${ZERO[@]}" 19554 -- "${PY_CLIENT[@]}" "$(U 19554 /sse)" --sse --slow 3
}
scenario_langgraph-py() {
    scenario langgraph-py 19555 bash -c "cd '$W/lg' && exec '$W/.venv-lg/bin/langgraph' dev --no-browser --no-reload --host $HOST --port 19555" -- \
        "${LG_CLIENT[@]}" "$(U 19555 /mcp)" 'adder={"a":1,"b":2}' 'echo={"text":"hello"}' 'adder={"a":40,"b":2}' 'nosuch={}'
}
scenario_langgraph-ts() {
    scenario langgraph-ts 19556 bash -c "cd '$W/lg' && exec '$W/.venv-lg/bin/langgraph' dev --no-browser --no-reload --host $HOST --port 19556" -- \
        "${TS_CLIENT[@]}" "$(U 19556 /mcp)" 3
}

ALL=(robyn-py robyn-ts zero-py zero-ts zero-sse-py langgraph-py langgraph-ts)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

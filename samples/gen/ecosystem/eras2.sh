#!/usr/bin/env bash
# mcptap ecosystem corpus, group "eras2": mixed protocol eras between real implementations. A 2026-07-28 client (the
# official Python SDK mcp 2.3.0 `Client` in its default mode "auto", ../relays/py_client.py --mode auto; the TS SDK
# v2 client @modelcontextprotocol/client 2.4.0, versionNegotiation "auto", eras2/client-v2.mjs) against OLDER
# servers (Python SDK mcp 1.8.1 and 1.9.4 FastMCP, FastMCP 2.14.7, TS SDK 1.10.2 / 1.17.5 / 1.24.3), and old
# clients (TS SDK 1.10.2 and 1.17.5, Python SDK mcp 1.9.4) against 2026-07-28 servers (@modelcontextprotocol/server
# 2.4.0 createMcpHandler, Python SDK 2.3.0 MCPServer). Each client run: connect (discover / initialize), tools/list,
# add(1,2), echo("hello"), slow_count(3) with a progressToken, add(40,2), close. Our code is only the drivers
# (eras2/*.mjs, eras2/fastmcp2_server.py; ../oldsdks/py18.py for the mcp 1.x FastMCP server and client).
# Captured on loopback (127.0.0.1, ports 20410-20429):
#   py23-to-py18          port 20410: Python 2.3.0 client (auto) -> mcp 1.8.1 FastMCP server (/mcp -> 307 /mcp/)
#   py23-to-py19          port 20411: Python 2.3.0 client (auto) -> mcp 1.9.4 FastMCP server
#   py23-to-fastmcp2      port 20412: Python 2.3.0 client (auto) -> FastMCP 2.14.7 (mcp 1.30.0) http transport
#   py23-to-ts110         port 20413: Python 2.3.0 client (auto) -> TS SDK 1.10.2 server, stateful
#   py23-to-ts117-stateless port 20414: Python 2.3.0 client (auto) -> TS SDK 1.17.5 server, stateless
#   ts2-to-ts124          port 20415: TS SDK v2 client (auto) -> TS SDK 1.24.3 server, stateful
#   ts2-to-py19           port 20416: TS SDK v2 client (auto) -> mcp 1.9.4 FastMCP server
#   ts110-to-ts2          port 20417: TS SDK 1.10.2 client -> TS SDK v2 server (createMcpHandler defaults)
#   py19-to-ts2           port 20418: mcp 1.9.4 client -> TS SDK v2 server
#   ts117-to-py23         port 20419: TS SDK 1.17.5 client -> Python SDK 2.3.0 server (../sdks/py/sdks_py.py pyserver)
#   ts2-to-fastmcp2       port 20420: TS SDK v2 client (auto) -> FastMCP 2.14.7
# (port 20429 is never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/eras2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/eras2.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/eras2-<scenario>.pcap, listings samples/gen/wire/ecosystem/eras2-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every server is stopped after its scenario; a guard
# capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0), eras2/node_modules (`npm ci` of eras2/package-lock.json) and the venvs
# eras2/.venv-py18, .venv-py19, .venv-fastmcp2 from eras2/requirements-*.txt (pip freezes). All git-ignored.
# Results and labels: samples/ecosystem/eras2.md, samples/ecosystem/labels-eras2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/eras2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=eras2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    FASTMCP_SHOW_CLI_BANNER=false FASTMCP_CHECK_FOR_UPDATES=off

SDKPY="$ECO/sdks/.venv/bin/python"
PY23_CLIENT=("$SDKPY" "$ECO/relays/py_client.py")                         # URL --mode auto
PY23_SERVER=("$SDKPY" "$ECO/sdks/py/sdks_py.py" pyserver --port)          # PORT
PY18=("$W/.venv-py18/bin/python" "$ECO/oldsdks/py18.py")                  # server --port N | client --url URL
PY19=("$W/.venv-py19/bin/python" "$ECO/oldsdks/py18.py")
FASTMCP2=("$W/.venv-fastmcp2/bin/python" "$W/fastmcp2_server.py")         # PORT
V1_SERVER=(node "$W/v1-server.mjs")                                       # sdk110|sdk117|sdk124 PORT [--stateless]
V1_CLIENT=(node "$W/v1-client.mjs")                                       # sdk110|sdk117 URL
V2_CLIENT=(node "$W/client-v2.mjs")                                       # URL
V2_SERVER=(node "$W/ts2-server.mjs")                                      # PORT

setup() {
    setup_pysdk
    need_npm "$W"
    local v
    for v in py18 py19 fastmcp2; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT, capture, one bounded client
# run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    server "$name-server" "$port" "${srv[@]}"
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
URL() { echo "http://$HOST:$1/mcp"; }

scenario_py23-to-py18() { scenario py23-to-py18 20410 "${PY18[@]}" server --port 20410 -- "${PY23_CLIENT[@]}" "$(URL 20410)" --mode auto; }
scenario_py23-to-py19() { scenario py23-to-py19 20411 "${PY19[@]}" server --port 20411 -- "${PY23_CLIENT[@]}" "$(URL 20411)" --mode auto; }
scenario_py23-to-fastmcp2() { scenario py23-to-fastmcp2 20412 "${FASTMCP2[@]}" 20412 -- "${PY23_CLIENT[@]}" "$(URL 20412)" --mode auto; }
scenario_py23-to-ts110() { scenario py23-to-ts110 20413 "${V1_SERVER[@]}" sdk110 20413 -- "${PY23_CLIENT[@]}" "$(URL 20413)" --mode auto; }
scenario_py23-to-ts117-stateless() { scenario py23-to-ts117-stateless 20414 "${V1_SERVER[@]}" sdk117 20414 --stateless -- "${PY23_CLIENT[@]}" "$(URL 20414)" --mode auto; }
scenario_ts2-to-ts124() { scenario ts2-to-ts124 20415 "${V1_SERVER[@]}" sdk124 20415 -- "${V2_CLIENT[@]}" "$(URL 20415)"; }
scenario_ts2-to-py19() { scenario ts2-to-py19 20416 "${PY19[@]}" server --port 20416 -- "${V2_CLIENT[@]}" "$(URL 20416)"; }
scenario_ts110-to-ts2() { scenario ts110-to-ts2 20417 "${V2_SERVER[@]}" 20417 -- "${V1_CLIENT[@]}" sdk110 "$(URL 20417)"; }
scenario_py19-to-ts2() { scenario py19-to-ts2 20418 "${V2_SERVER[@]}" 20418 -- "${PY19[@]}" client --url "$(URL 20418)"; }
scenario_ts117-to-py23() { scenario ts117-to-py23 20419 "${PY23_SERVER[@]}" 20419 -- "${V1_CLIENT[@]}" sdk117 "$(URL 20419)"; }
scenario_ts2-to-fastmcp2() { scenario ts2-to-fastmcp2 20420 "${FASTMCP2[@]}" 20420 -- "${V2_CLIENT[@]}" "$(URL 20420)"; }

ALL=(py23-to-py18 py23-to-py19 py23-to-fastmcp2 py23-to-ts110 py23-to-ts117-stateless ts2-to-ts124 ts2-to-py19
     ts110-to-ts2 py19-to-ts2 ts117-to-py23 ts2-to-fastmcp2)

run_scenarios "tcpdump tshark ss node" -- "$@"

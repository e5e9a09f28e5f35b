#!/usr/bin/env bash
# mcptap ecosystem corpus, group "oldsdks": real traffic of OLDER releases of the two official MCP SDKs, as still
# deployed, against each other and against current ones. Nothing here shapes the traffic: every SDK runs with its own
# defaults. Captured on loopback (127.0.0.1, ports 18831-18848 only).
#
#   sudo bash samples/gen/ecosystem/oldsdks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/oldsdks.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/oldsdks-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   py18            18831  Python mcp 1.8.1 client (streamablehttp_client + ClientSession) -> mcp 1.8.1 FastMCP
#                          streamable_http_app (defaults: stateful, SSE replies, no event store). 1.8.1 is the
#                          first Python release with Streamable HTTP and still negotiates 2024-11-05.
#   py18-to-py23    18832  the mcp 1.8.1 client -> the current Python SDK server (mcp 2.3.0, sdks/py/sdks_py.py
#                          pyserver: pysdk_tools.py's MCPServer, defaults)
#   ts110           18833  TS SDK 1.11.5 client (StreamableHTTPClientTransport) -> TS SDK 1.11.5 server
#                          (StreamableHTTPServerTransport per session, stateful, defaults), both 2025-03-26 era
#   ts110-to-ts132  18834  the TS 1.11.5 client -> TS SDK 1.32.2 server (same harness)
#   ts132-to-ts110  18835  TS SDK 1.32.2 client -> the TS 1.11.5 server
#   py19            18836  Python mcp 1.9.4 client -> mcp 1.9.4 FastMCP server (the first Python release that
#                          negotiates 2025-03-26)
#
# Every client run: initialize (+ the standalone GET the client opens), tools/list, add(1,2), echo("hello"),
# slow_count(3) with a progressToken (3 notifications/progress 0.1 s apart), add(40,2), close (DELETE where the
# client sends one). Each client run is bounded (timeout 60 here; 30 s guards and 15 s request timeouts inside).
#
# Needs root (tcpdump), python3 >= 3.11 with venv, node 20 + npm, tcpdump, tshark (describe.py). First use makes
# oldsdks/.venv-py18 (requirements-py18.txt), oldsdks/.venv-py19 (requirements-py19.txt), `npm ci` in oldsdks/ts110
# and oldsdks/ts132, and sdks/.venv (the sdks group's mcp 2.3.0); all git-ignored.
# Results and labels: samples/ecosystem/oldsdks.md, samples/ecosystem/labels-oldsdks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples, PY)
W="$ECO/oldsdks"                                        # harness code, pins, venvs, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs
GROUP=oldsdks
PY18="$W/.venv-py18/bin/python"
PY19="$W/.venv-py19/bin/python"
PY23="$ECO/sdks/.venv/bin/python"                       # mcp 2.3.0 (sdks/requirements.txt)
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$W/.venv-py18" "$W/requirements-py18.txt"
    need_venv "$W/.venv-py19" "$W/requirements-py19.txt"
    setup_pysdk
    local v
    for v in ts110 ts132; do
        if [ ! -f "$W/$v/node_modules/.package-lock.json" ] || [ "$W/$v/package-lock.json" -nt "$W/$v/node_modules/.package-lock.json" ]; then
            (cd "$W/$v" && npm ci --no-audit --no-fund)
        fi
    done
}

u() { echo "http://$HOST:$1/mcp"; }

scenario_py18() {
    capture_run py18 18831 "$PY18" "$W/py18.py" server --port 18831 -- "$PY18" "$W/py18.py" client --url "$(u 18831)"
}
scenario_py18-to-py23() {
    capture_run py18-to-py23 18832 "$PY23" "$ECO/sdks/py/sdks_py.py" pyserver --port 18832 \
        -- "$PY18" "$W/py18.py" client --url "$(u 18832)"
}
scenario_ts110() {
    capture_run ts110 18833 node "$W/ts110/server.mjs" 18833 -- node "$W/ts110/client.mjs" "$(u 18833)"
}
scenario_ts110-to-ts132() {
    capture_run ts110-to-ts132 18834 node "$W/ts132/server.mjs" 18834 -- node "$W/ts110/client.mjs" "$(u 18834)"
}
scenario_ts132-to-ts110() {
    capture_run ts132-to-ts110 18835 node "$W/ts110/server.mjs" 18835 -- node "$W/ts132/client.mjs" "$(u 18835)"
}
scenario_py19() {
    capture_run py19 18836 "$PY19" "$W/py18.py" server --port 18836 -- "$PY19" "$W/py18.py" client --url "$(u 18836)"
}

ALL=(py18 py18-to-py23 ts110 ts110-to-ts132 ts132-to-ts110 py19)

run_scenarios "tcpdump tshark node npm" -- "$@"

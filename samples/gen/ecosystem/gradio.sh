#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gradio": Gradio's own MCP server (the many Hugging Face Spaces launched with
# `demo.launch(mcp_server=True)`, PyPI `gradio[mcp]`), with traffic nobody here shaped: gradio 6.31.0 (gradio_client
# 2.7.2, fastapi 0.165.0, uvicorn 0.55.0) serving MCP from its own app through the Python SDK it pins, mcp 1.30.0
# (gradio/mcp.py: `StreamableHTTPSessionManager(json_response=False, stateless=True)` on /gradio_api/mcp/ (also
# /gradio_api/mcp, .../mcp/http): stateless, no Mcp-Session-Id, SSE replies without ids; `SseServerTransport` on
# /gradio_api/mcp/sse with POSTs to /gradio_api/mcp/messages/?session_id=; /gradio_api/mcp/schema, a JSON list of
# the tools; a GET of the MCP URL whose Accept lacks text/event-stream gets an HTML landing page). Captured on
# loopback (127.0.0.1, ports 19130-19139 only), one Gradio app (gradio/app.py: add, echo, count_slowly with
# gr.Progress; Gradio's defaults, every event queued) per scenario on its own port.
#
#   sudo bash samples/gen/ecosystem/gradio.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gradio.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/gradio-<scenario>.pcap, listing samples/gen/wire/ecosystem/gradio-<scenario>.pcap.txt):
#   streamable-py       port 19130: the Python SDK client (mcp 2.3.0, gradio/py_client.py, mode="legacy": the
#                       initialize handshake, asks 2025-11-25) over Streamable HTTP to /gradio_api/mcp/
#   sse-py              port 19131: the same client over HTTP+SSE (sse_client) to /gradio_api/mcp/sse
#   streamable-ts       port 19132: the TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, gradio/ts_client.mjs,
#                       StreamableHTTPClientTransport) to /gradio_api/mcp/
#   sse-ts              port 19133: the same client with SSEClientTransport to /gradio_api/mcp/sse
#   streamable-py-auto  port 19134: the Python SDK client in its own default mode ("auto": 2026-07-28
#                       server/discover first) to /gradio_api/mcp/, a server that knows no 2026-07-28
#   browser             port 19135: a Python SDK session as in streamable-py, then, 0.5 s later, curl as a browser
#                       (Firefox 128 ESR's User-Agent and Accept) GETs the MCP URL /gradio_api/mcp/ (the link Gradio
#                       prints at launch), then 0.2 s later curl GETs /gradio_api/mcp/schema (Accept:
#                       application/json), as the Hugging Face MCP server does to read a Space's tools
#
# Each session: initialize, tools/list, add(1,2), echo("hello"), count_slowly(3) with a progressToken (Gradio's queue
# status and gr.Progress steps become notifications/progress), 0.1 s apart, close. Every tools/call runs through
# Gradio's queue: its MCP server calls its own HTTP API on the same port through gradio_client (`x-gradio-user: mcp`:
# GET /gradio_api/info etc. once, then POST /gradio_api/queue/join + GET /gradio_api/queue/data SSE per call), so
# that loopback traffic is in the captures too. Each client run is bounded (timeout 60 here, 30 s inside; 10 s per
# request for Python, 15 s for TypeScript; curl -m 10). The Gradio app is up before the capture starts (its log's
# "Streamable HTTP URL" line waited for: Gradio's own startup GET of /gradio_api/startup-events is before the
# capture) and stopped after it. No network beyond 127.0.0.1: GRADIO_ANALYTICS_ENABLED=False (else Gradio's
# version check GETs api.gradio.app at Blocks creation), HF_HUB_OFFLINE=1, HF_HUB_DISABLE_TELEMETRY=1, share=False,
# ssr_mode=False; a guard capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (gradio/wire.py, which imports agents/wire.py and replicas/wire.py by path),
# curl, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes gradio/.venv from
# gradio/requirements-gradio.txt (gradio 6.31.0 with the mcp extra: mcp 1.30.0), the sdks group's venv sdks/.venv
# (the Python SDK 2.3.0 client; also runs wire.py) and gradio/node_modules (`npm ci`). All git-ignored
# (gradio/.gitignore). Results and labels: samples/ecosystem/gradio.md, samples/ecosystem/labels-gradio.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gradio"                                         # the app, the clients, pins, venv, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=gradio
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

# No network beyond loopback (see the header).
export GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1
export GRADIO_TEMP_DIR="$RUN/tmp"                    # Gradio's scratch (default /tmp/gradio), git-ignored

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; runs wire.py
GRPY="$W/.venv/bin/python"                              # gradio 6.31.0, mcp 1.30.0: the server
PY_CLIENT=("$SDKPY" "$W/py_client.py")                  # [--sse] URL [--mode legacy|auto]
TS_CLIENT=(node "$W/ts_client.mjs")                     # streamable|sse URL
# A browser's request headers (Firefox 128 ESR's), for the landing page fetch.
UA="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
ACCEPT="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements-gradio.txt"
    need_npm "$W"
}

# gradio_up NAME PORT: the Gradio app (gradio/app.py PORT) started, waited for until its log says it serves MCP and
# the port accepts connections (before the capture).
gradio_up() {
    local name=$1 port=$2 i
    : >"$RUN/$name-server.log"
    bg "$name-server" "$GRPY" "$W/app.py" "$port"
    for i in $(seq 1 600); do
        grep -q "Streamable HTTP URL" "$RUN/$name-server.log" && break
        sleep 0.1
    done
    grep -q "Streamable HTTP URL" "$RUN/$name-server.log" || { cat "$RUN/$name-server.log" >&2; exit 1; }
    wait_port "$port"
    sleep 0.5
}

# gradio_scenario NAME PORT CLIENT-CMD...: guard on, the app up on PORT, capture of PORT, one bounded client run,
# then (if EXTRA is set) the function EXTRA, capture stop and listing, everything down, guard off.
gradio_scenario() {
    local name=$1 port=$2; shift 2
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    gradio_up "$name" "$port"
    capture_start "$name" "$port"
    run "$name-client" "$@"
    [ -z "${EXTRA:-}" ] || "$EXTRA" "$port"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -8 | sed "s/^/   server: /" || true
}

URL_MCP=/gradio_api/mcp/
URL_SSE=/gradio_api/mcp/sse

# --------------------------------------------------------------------------------------------- scenarios
scenario_streamable-py() { gradio_scenario streamable-py 19130 "${PY_CLIENT[@]}" "http://$HOST:19130$URL_MCP"; }
scenario_sse-py() { gradio_scenario sse-py 19131 "${PY_CLIENT[@]}" --sse "http://$HOST:19131$URL_SSE"; }
scenario_streamable-ts() { gradio_scenario streamable-ts 19132 "${TS_CLIENT[@]}" streamable "http://$HOST:19132$URL_MCP"; }
scenario_sse-ts() { gradio_scenario sse-ts 19133 "${TS_CLIENT[@]}" sse "http://$HOST:19133$URL_SSE"; }
scenario_streamable-py-auto() {
    gradio_scenario streamable-py-auto 19134 "${PY_CLIENT[@]}" "http://$HOST:19134$URL_MCP" --mode auto
}

browser_fetches() {
    local port=$1
    sleep 0.5
    run browser-page curl -sS -m 10 -H "User-Agent: $UA" -H "Accept: $ACCEPT" -H "Accept-Language: en-US,en;q=0.5" \
        -o /dev/null -w "%{http_code} %{content_type} %{size_download}\n" "http://$HOST:$port$URL_MCP"
    sleep 0.2
    run browser-schema curl -sS -m 10 -H "Accept: application/json" -o /dev/null \
        -w "%{http_code} %{content_type} %{size_download}\n" "http://$HOST:$port/gradio_api/mcp/schema"
}
scenario_browser() {
    EXTRA=browser_fetches gradio_scenario browser 19135 "${PY_CLIENT[@]}" "http://$HOST:19135$URL_MCP"
}

ALL=(streamable-py sse-py streamable-ts sse-ts streamable-py-auto browser)

run_scenarios "tcpdump tshark ss curl node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "indie": MCP implementations with their OWN HTTP transport code (not wrappers of the
# official SDKs' transports), from npm and PyPI, each against an official SDK peer, captured on loopback (ports
# 18900-18939 only).
#   1. the Vercel AI SDK's MCP client (npm @ai-sdk/mcp 2.0.99, createMCPClient; `ai` 7.x no longer ships an MCP
#      client, it depends on @ai-sdk/provider* only): its own `http` (Streamable HTTP, with a 2026-07-28 `server/discover` probe first) and `sse`
#      transports, against the official TS SDK 1.32.2 server and Python SDK 2.3.0 server;
#   2. aiohttp-mcp (PyPI 0.7.0): its own aiohttp HTTP+SSE and Streamable HTTP transports around the Python SDK 1.x core;
#   3. litestar-mcp (PyPI 0.16.0): a Litestar plugin with its own JSON-RPC router and transport, 2026-07-28 only.
#
#   sudo bash samples/gen/ecosystem/indie.sh             # every scenario
#   sudo bash samples/gen/ecosystem/indie.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/indie-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   ai-sdk-to-ts           port 18900: TS SDK 1.32.2 server (indie/ts-server.mjs: express 5, stateful README pattern,
#                          SSE replies) <- AI SDK client, { type: 'http' } defaults (indie/ai-sdk-client.mjs)
#   ai-sdk-to-py           port 18901: Python SDK 2.3.0 MCPServer (indie/py_server.py: streamable_http_app defaults,
#                          answers both eras) <- the same AI SDK client
#   ai-sdk-sse             port 18902: TS SDK 1.32.2 legacy HTTP+SSE server (ts-server.mjs --sse: GET /sse, POST
#                          /messages) <- AI SDK client, { type: 'sse' }
#   aiohttp-mcp-sse        port 18910: aiohttp-mcp build_mcp_app defaults (TransportMode.SSE: GET and POST on /mcp)
#                          <- TS SDK 1.32.2 SSEClientTransport (indie/ts-client.mjs sse)
#   aiohttp-mcp-stateless  port 18911: aiohttp-mcp, the README's production setup (STREAMABLE_HTTP, stateless=True)
#                          <- Python SDK 2.3.0 client defaults (indie/py_client.py: mode "auto")
#   litestar-mcp           port 18920: litestar-mcp defaults (LitestarMCP(), POST /mcp) under uvicorn
#                          <- Python SDK 2.3.0 client defaults
#   litestar-mcp-ai-sdk    port 18921: the same server <- AI SDK client, { type: 'http' }
#
# Every client run: connect (initialize, or the 2026-07-28 server/discover), tools/list, add(1,2), echo("hello"),
# slow_count(3) (3 notifications/progress 0.1 s apart when the request carries a progressToken: the TS and Python SDK
# clients send one, the AI SDK client has no progress API and sends none), add(40,2), close (DELETE when the client
# holds a session id). Each client run is bounded (timeout 60 here, 30 s guards inside the clients).
#
# Needs root (tcpdump), node 20 + npm (@ai-sdk/mcp declares node >= 22 but runs on 20), tcpdump, tshark
# (describe.py), python3 (samples/gen/.venv for describe.py, the sdks group's venv sdks/.venv with mcp 2.3.0 for the
# Python SDK server and client, indie/.venv from indie/requirements.txt for aiohttp-mcp and litestar-mcp, which need
# mcp 1.x and no mcp). First use runs `npm ci` in indie/ (node_modules, git-ignored). Results and labels:
# samples/ecosystem/indie.md, samples/ecosystem/labels-indie.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples, PY)
W="$ECO/indie"                                          # harness code, pins, node_modules, .venv
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs
GROUP=indie
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: Python SDK server and client
IPY="$W/.venv/bin/python"                               # aiohttp-mcp (mcp 1.30.0), litestar-mcp

setup() {
    need_venv "$GEN/.venv" "$GEN/requirements.txt"
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

AI_SDK=(node "$W/ai-sdk-client.mjs")
TS_CLIENT=(node "$W/ts-client.mjs")
PY_CLIENT=("$SDKPY" "$W/py_client.py")

scenario_ai-sdk-to-ts()  { capture_run ai-sdk-to-ts 18900 node "$W/ts-server.mjs" 18900 -- "${AI_SDK[@]}" http "http://$HOST:18900/mcp"; }
scenario_ai-sdk-to-py()  { capture_run ai-sdk-to-py 18901 "$SDKPY" "$W/py_server.py" 18901 -- "${AI_SDK[@]}" http "http://$HOST:18901/mcp"; }
scenario_ai-sdk-sse()    { capture_run ai-sdk-sse 18902 node "$W/ts-server.mjs" 18902 --sse -- "${AI_SDK[@]}" sse "http://$HOST:18902/sse"; }
scenario_aiohttp-mcp-sse() {
    capture_run aiohttp-mcp-sse 18910 "$IPY" "$W/aiohttp_server.py" 18910 -- "${TS_CLIENT[@]}" sse "http://$HOST:18910/mcp"
}
scenario_aiohttp-mcp-stateless() {
    capture_run aiohttp-mcp-stateless 18911 "$IPY" "$W/aiohttp_server.py" 18911 --stateless -- "${PY_CLIENT[@]}" "http://$HOST:18911/mcp"
}
scenario_litestar-mcp()  { capture_run litestar-mcp 18920 "$IPY" "$W/litestar_server.py" 18920 -- "${PY_CLIENT[@]}" "http://$HOST:18920/mcp"; }
scenario_litestar-mcp-ai-sdk() {
    capture_run litestar-mcp-ai-sdk 18921 "$IPY" "$W/litestar_server.py" 18921 -- "${AI_SDK[@]}" http "http://$HOST:18921/mcp"
}

ALL=(ai-sdk-to-ts ai-sdk-to-py ai-sdk-sse aiohttp-mcp-sse aiohttp-mcp-stateless litestar-mcp litestar-mcp-ai-sdk)

run_scenarios "tcpdump tshark node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "nonmcp2": traffic that looks like MCP on the wire (JSON-RPC 2.0 over HTTP POST,
# replies as application/json or text/event-stream with JSON in `data:` lines, an `initialize` handshake) but is NOT
# MCP, which mcptap must not take for MCP; and one capture where an A2A agent and an MCP server share one port and one
# app. Fully offline (a guard capture of all other traffic checks it), captured on loopback (127.0.0.1, ports
# 19330-19336 only).
#
#   sudo bash samples/gen/ecosystem/nonmcp2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/nonmcp2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/nonmcp2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   a2a-py         port 19330: Google's Agent2Agent protocol, official Python SDK a2a-sdk 1.3.0 on both sides
#                  (nonmcp2/a2a_server.py: echo executor; nonmcp2/a2a_client.py): agent card, A2A v1.0 JSON-RPC
#                  methods SendMessage (JSON), GetTask, SendStreamingMessage (SSE), a stream left early,
#                  SubscribeToTask (SSE), CancelTask, GetTask of an unknown id (JSON-RPC error)
#   a2a-py-v03     port 19331: the same, the client on the card's v0.3 interface (the SDK's compat transport):
#                  message/send, tasks/get, message/stream, tasks/resubscribe, tasks/cancel
#   a2a-js-server  port 19332: the A2A JS SDK (@a2a-js/sdk 1.3.0, express 5.1.0) server (nonmcp2/js/a2a_server.mjs,
#                  legacyCompat on), the Python client on v0.3
#   a2a-js-client  port 19333: the A2A JS SDK client (nonmcp2/js/a2a_client.mjs, v1.0) -> the Python A2A server
#   a2a-with-mcp   port 19334: ONE app: the Python SDK MCP server (../pysdk_tools.py, mcp 2.3.0, Streamable HTTP on
#                  /mcp) with the A2A routes added (JSON-RPC on /a2a, card at /.well-known/agent-card.json); the A2A
#                  Python client (v1.0) and the MCP Python SDK client (relays/py_client.py, legacy mode: initialize,
#                  GET stream, tools, DELETE) run at the same time: the MCP session is real, the A2A traffic beside it
#                  is not MCP
#   openai-sse     port 19335: an OpenAI-compatible chat-completions stub (nonmcp2/openai_stub.py) and the official
#                  openai 3.63.0 client: /v1/models, a JSON completion, three SSE streams (`data: {chunk}` ...
#                  `data: [DONE]`), one with tool-call deltas
#   lsp-bridge     port 19336: an LSP-over-HTTP bridge stub (nonmcp2/lsp_bridge.py, nonmcp2/lsp_client.py): LSP's
#                  JSON-RPC on POST /lsp starting with `initialize` (LSP params, clientInfo, no protocolVersion), an SSE
#                  event stream on GET /lsp whose ids restart at 1 on every connection (Last-Event-ID ignored),
#                  $/cancelRequest answered -32800. The trap: see samples/ecosystem/nonmcp2.md
# Each client run is bounded (timeout 60 here, 30-40 s inside).
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, which imports replicas/wire.py by path), python3 with venv,
# node + npm. First use makes nonmcp2/.venv (nonmcp2/requirements.txt), nonmcp2/js/node_modules (npm ci from
# nonmcp2/js/package-lock.json) and the sdks group's venv sdks/.venv (mcp 2.3.0: the MCP client, and wire.py). All
# git-ignored (nonmcp2/.gitignore). Results and labels: samples/ecosystem/nonmcp2.md, samples/ecosystem/labels-nonmcp2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/nonmcp2"                                        # harness code, pins, venv, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=nonmcp2
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the MCP client; also runs wire.py
NPY="$W/.venv/bin/python"                               # a2a-sdk 1.3.0, mcp 2.3.0, openai 3.63.0, starlette, uvicorn
export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W/js"
}

# nonmcp2 NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that port, one
# bounded client run, stop, listing by agents/wire.py) inside a guard capture of every packet that is not
# 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1).
nonmcp2() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}
url() { echo "http://$HOST:$1"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_a2a-py()        { nonmcp2 a2a-py 19330 "$NPY" "$W/a2a_server.py" 19330 -- "$NPY" "$W/a2a_client.py" "$(url 19330)"; }
scenario_a2a-py-v03()    { nonmcp2 a2a-py-v03 19331 "$NPY" "$W/a2a_server.py" 19331 -- "$NPY" "$W/a2a_client.py" "$(url 19331)" --v03; }
scenario_a2a-js-server() { nonmcp2 a2a-js-server 19332 node "$W/js/a2a_server.mjs" 19332 -- "$NPY" "$W/a2a_client.py" "$(url 19332)" --v03; }
scenario_a2a-js-client() { nonmcp2 a2a-js-client 19333 "$NPY" "$W/a2a_server.py" 19333 -- node "$W/js/a2a_client.mjs" "$(url 19333)"; }
scenario_openai-sse()    { nonmcp2 openai-sse 19335 "$NPY" "$W/openai_stub.py" 19335 -- "$NPY" "$W/openai_client.py" "$(url 19335)/v1"; }
scenario_lsp-bridge()    { nonmcp2 lsp-bridge 19336 "$NPY" "$W/lsp_bridge.py" 19336 -- "$NPY" "$W/lsp_client.py" "$(url 19336)/lsp"; }

# Both clients at once against the one app: the A2A client in the background (started first), the MCP client 0.3 s
# later in the foreground (lib.sh run), then the A2A client is waited for.
scenario_a2a-with-mcp() {
    local port=19334 a2a rc=0
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    free "$port"
    guard_start a2a-with-mcp
    server a2a-with-mcp-server "$port" "$NPY" "$W/a2a_server.py" "$port" --with-mcp
    capture_start a2a-with-mcp "$port"
    timeout 60 "$NPY" "$W/a2a_client.py" "$(url $port)" >"$RUN/a2a-with-mcp-a2a-client.log" 2>&1 &
    a2a=$!
    sleep 0.3
    run a2a-with-mcp-mcp-client "$SDKPY" "$ECO/relays/py_client.py" "$(url $port)/mcp"
    wait "$a2a" || rc=$?
    cut -c1-150 "$RUN/a2a-with-mcp-a2a-client.log" | tail -20 | sed "s/^/   a2a-client: /"
    [ "$rc" -eq 0 ] || echo "   (a2a-client exited with $rc)"
    capture_stop a2a-with-mcp
    cleanup
    sleep 1
    guard_stop a2a-with-mcp
}

ALL=(a2a-py a2a-py-v03 a2a-js-server a2a-js-client a2a-with-mcp openai-sse lsp-bridge)

run_scenarios "tcpdump tshark node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "rust4": three more Rust MCP crates from crates.io with HTTP transports of their own:
# two of the legacy HTTP+SSE era, both on actix-web (mcp-core 0.1.50 and async-mcp 0.1.3), their servers against the
# official Python and TypeScript SDK clients (SSE transports) and their clients against the official Python SDK server
# (--sse); and the gateway mcp-proxy 0.6.0 (tower-mcp 0.23.2) between the official Python SDK client and server, its
# backend restarted; captured on loopback (127.0.0.1, ports 20150-20169 only).
#
#   sudo bash samples/gen/ecosystem/rust4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/rust4.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/rust4-<scenario>.pcap, listing samples/gen/wire/ecosystem/rust4-<scenario>.pcap.txt),
# each on its own port:
#   mcpcore-py          20150  mcp-core 0.1.50 ServerSseTransport (GET /sse, POST /message?sessionId=; 2024-11-05)
#                              <- Python SDK client (sse_client)
#   mcpcore-ts          20151  the same server <- TS SDK client (SSEClientTransport)
#   mcpcore-client      20152  mcp-core ClientSseTransport (asks 2024-11-05) -> Python SDK server --sse
#   mcpcore-restart     20154  the mcpcore-py server, SIGKILLed and started again while the Python SDK client holds its
#                              session idle (--hold 4) after `fail`; its last add(40,2) goes to the new process
#   mcpcore-idle        20155  the mcpcore-py server <- Python SDK client holding its session 17 s (the server's 15 s
#                              "ping" on the GET stream)
#   asyncmcp-py         20156  async-mcp 0.1.3 http_server handlers (GET /sse, POST /message?sessionId=, GET /ws),
#                              endpoint announced as http://127.0.0.1:20156 (--endpoint) <- Python SDK client
#   asyncmcp-default    20158  the async-mcp server with the library's default endpoint string (http://0.0.0.0:PORT,
#                              what run_http_server announces) <- Python SDK client, then TS SDK client
#   asyncmcp-client     20159  async-mcp ClientSseTransport (base URL; it appends /sse and /message) -> Python SDK
#                              server --sse
#   asyncmcp-restart    20161  the asyncmcp-py server <- TS SDK client holding its session idle (HOLD 4) after `fail`;
#                              the server is SIGKILLed and started again as in mcpcore-restart
#   asyncmcp-client-restart 20163  the async-mcp client (--hold 4 after no_such_tool) -> the async-mcp server, SIGKILLed
#                              and started again as in mcpcore-restart; its last add(40,2) goes to the new process
#   proxy-restart       20164  Python SDK client (Streamable HTTP, tools called as `py/<tool>`, --hold 4, --again 2)
#                       20165  -> mcp-proxy 0.6.0 (rust4/proxy.toml: front `/` on 20164, one HTTP backend) -> Python
#                              SDK server (Streamable HTTP /mcp on 20165), SIGKILLed during the hold and started again;
#                              the proxy stays up. Both hops captured
#   asyncmcp-ws         20162  the async-mcp client over its WebSocket transport (ClientWsTransportBuilder,
#                              `Sec-WebSocket-Protocol: mcp`) -> the async-mcp server's GET /ws (actix-ws)
#
# Clients: rust4/py_client.py (mcp 2.3.0, `Client(sse_client(URL), mode="legacy")`; --streamable for the proxy),
# rust4/ts_client.mjs (TS SDK 1.32.2 SSEClientTransport, loaded from ../proxies2/node_modules), and the harnesses'
# `client` subcommands
# (rust4/<crate>/src/main.rs). Each session: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) (with a
# progressToken where the client sends one), no_such_tool (a JSON-RPC error), fail (isError; not by the Rust clients),
# add(40,2), close (proxy-restart: two more echo calls, then DELETE). Neither mcp-core nor async-mcp hands its tools a
# request context: no progress. Server for the Rust clients:
# ../py_server.py --sse (Python SDK MCPServer, legacy HTTP+SSE app: GET /sse, POST /messages/?session_id=).
#
# Needs root (tcpdump), cargo (1.95 here), python3 with venv, node 20 + npm, tcpdump, tshark (the listing,
# ../replicas/wire.py). First use builds the two harness crates of the workspace rust4/ (its own [workspace], one
# Cargo.lock, `cargo build --locked -j 1` at nice 15, debug) into rust4/run/target, installs mcp-proxy 0.6.0
# (`cargo install --locked --no-default-features`, its published Cargo.lock) into rust4/run/bin, makes the sdks
# group's venv (sdks/.venv) and proxies2/node_modules (`npm ci`). All git-ignored. Every scenario runs inside the offline guard
# (lib.sh guard_start/guard_stop). Results and labels: samples/ecosystem/rust4.md, samples/ecosystem/labels-rust4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/rust4"                                          # harness workspace, clients
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures, cargo target
VPY="$ECO/sdks/.venv/bin/python"
GROUP=rust4
DESCRIBE=()                                             # set per scenario: wire.py needs the port
export CARGO_TARGET_DIR="$RUN/target"
BIN="$CARGO_TARGET_DIR/debug"
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, capture_start/stop, guard_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
export RUST_BACKTRACE=0 RUST_LOG=warn DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false \
    OTEL_SDK_DISABLED=true

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    local c
    for c in mcpcore asyncmcp; do
        [ -x "$BIN/$c-harness" ] || (cd "$W" && nice -n 15 cargo build --locked -j 1 -p "$c-harness")
    done
    # mcp-proxy 0.6.0 from crates.io with its own Cargo.lock (--locked), without its default features (otel, metrics,
    # oauth, openapi, websocket, discovery, yaml, skills)
    [ -x "$PROXY" ] || CARGO_TARGET_DIR="$RUN/target-proxy" nice -n 15 cargo install --locked --root "$RUN/bin" -j 1 \
        --no-default-features mcp-proxy@0.6.0
}

# captured NAME PORT SERVER-CMD... -- CLIENT-CMD... [-- CLIENT2-CMD...]: server up on PORT (before the capture,
# watched in the socket table), offline guard, capture of PORT, one or two client runs one after the other, each
# bounded by `timeout 60`, capture stop, guard stop, all down.
captured() {
    local name=$1 port=$2; shift 2
    local srv=() c1=() c2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do c1+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    c2=("$@")
    free "$port"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/replicas/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    run "$name-client" "${c1[@]}"
    if [ ${#c2[@]} -gt 0 ]; then sleep 0.5; run "$name-client2" "${c2[@]}"; fi
    capture_stop "$name"
    guard_stop "$name"
    down
}

# restarted NAME PORT SERVER-CMD... -- CLIENT-CMD...: as captured, but the client runs in the background; when its log
# says "holding" (the idle pause before the last add(40,2)) the server's process group is SIGKILLed, a new server is started on
# the same port with the same command, and the client goes on to its last call against that new process.
restarted() {
    local name=$1 port=$2; shift 2
    local srv=() cpid pa i
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    free "$port"
    bg "$name-server-a" "${srv[@]}"; pa=$LAST_PID
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/replicas/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    : >"$RUN/$name-client.log"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 & cpid=$!
    for i in $(seq 1 300); do { grep -q holding "$RUN/$name-client.log" || ! kill -0 "$cpid" 2>/dev/null; } && break; sleep 0.1; done
    if grep -q holding "$RUN/$name-client.log"; then
        sleep 0.5
        echo "   restart point reached: SIGKILL server a, start server b on $port"
        stop "$pa" KILL
        bg "$name-server-b" "${srv[@]}"
        listening "$port"
    else
        echo "   the client did not reach the restart point: no restart" >&2
    fi
    wait "$cpid" || echo "   ($name-client exited with $?)"
    sed "s/^/   $name-client: /" "$RUN/$name-client.log" | cut -c1-150 | tail -20
    capture_stop "$name"
    guard_stop "$name"
    down
}

# down: cleanup (TERM to every process group started by bg), then KILL to those still there a second later: the actix
# servers stop listening on TERM but their processes stay (graceful shutdown never ends).
down() {
    local p pids=("${PIDS[@]:-}")
    cleanup
    sleep 1
    for p in "${pids[@]}"; do [ -n "$p" ] && { kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true; }; done
}

# proxied_restart NAME FRONT BACK CLIENT-CMD...: the Python SDK server (py_server.py, Streamable HTTP /mcp) on BACK,
# mcp-proxy (rust4/proxy.toml) on FRONT, both watched in the socket table; offline guard; capture of both ports; the
# client in the background; when its log says "holding" the backend's process group is SIGKILLed and a new backend is
# started on BACK (the proxy stays up), and the client goes on to its last call.
proxied_restart() {
    local name=$1 front=$2 back=$3; shift 3
    local cpid pb
    free "$front" "$back"
    bg "$name-backend-a" $(py_server_http "$back"); pb=$LAST_PID
    listening "$back"
    bg "$name-proxy" "$PROXY" --config "$W/proxy.toml"
    listening "$front"
    DESCRIBE=("$VPY" "$ECO/replicas/wire.py" "$front" "$back")
    guard_start "$name"
    capture_start "$name" "$front" "$back"
    : >"$RUN/$name-client.log"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 & cpid=$!
    for i in $(seq 1 300); do { grep -q holding "$RUN/$name-client.log" || ! kill -0 "$cpid" 2>/dev/null; } && break; sleep 0.1; done
    if grep -q holding "$RUN/$name-client.log"; then
        sleep 0.5
        echo "   restart point reached: SIGKILL backend a, start backend b on $back"
        stop "$pb" KILL
        bg "$name-backend-b" $(py_server_http "$back")
        listening "$back"
    else
        echo "   the client did not reach the restart point: no restart" >&2
    fi
    wait "$cpid" || echo "   ($name-client exited with $?)"
    sed "s/^/   $name-client: /" "$RUN/$name-client.log" | cut -c1-150 | tail -20
    capture_stop "$name"
    guard_stop "$name"
    down
}

py_client() { echo "$VPY" "$W/py_client.py" "$1"; }
ts_client() { echo node "$W/ts_client.mjs" "$1"; }
py_server() { echo "$VPY" "$ECO/py_server.py" "$1" --sse --name "rust4-py-server"; }
py_server_http() { echo "$VPY" "$ECO/py_server.py" "$1" --name "rust4-py-backend"; }
PROXY="$RUN/bin/bin/mcp-proxy"
MC="$BIN/mcpcore-harness"
AM="$BIN/asyncmcp-harness"

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_client/*_server helpers print word lists without spaces inside words
scenario_mcpcore-py()       { captured mcpcore-py 20150 "$MC" server --port 20150 -- $(py_client http://$HOST:20150/sse); }
scenario_mcpcore-ts()       { captured mcpcore-ts 20151 "$MC" server --port 20151 -- $(ts_client http://$HOST:20151/sse); }
scenario_mcpcore-client()   { captured mcpcore-client 20152 $(py_server 20152) -- "$MC" client --url http://$HOST:20152/sse; }
scenario_mcpcore-restart()  { restarted mcpcore-restart 20154 "$MC" server --port 20154 -- $(py_client http://$HOST:20154/sse) --hold 4; }
scenario_mcpcore-idle()     { captured mcpcore-idle 20155 "$MC" server --port 20155 -- $(py_client http://$HOST:20155/sse) --hold 17; }
scenario_asyncmcp-py()      { captured asyncmcp-py 20156 "$AM" server --port 20156 --endpoint http://$HOST:20156 -- $(py_client http://$HOST:20156/sse); }
scenario_asyncmcp-default() { captured asyncmcp-default 20158 "$AM" server --port 20158 -- $(py_client http://$HOST:20158/sse) -- $(ts_client http://$HOST:20158/sse); }
scenario_asyncmcp-client()  { captured asyncmcp-client 20159 $(py_server 20159) -- "$AM" client --url http://$HOST:20159; }
scenario_asyncmcp-client-restart() { restarted asyncmcp-client-restart 20163 "$AM" server --port 20163 -- "$AM" client --url http://$HOST:20163 --hold 4; }
scenario_proxy-restart()    { proxied_restart proxy-restart 20164 20165 $(py_client http://$HOST:20164/) --streamable --prefix py/ --hold 4 --again 2; }
scenario_asyncmcp-ws()       { captured asyncmcp-ws 20162 "$AM" server --port 20162 -- "$AM" client --ws ws://$HOST:20162/ws; }
scenario_asyncmcp-restart() { restarted asyncmcp-restart 20161 "$AM" server --port 20161 --endpoint http://$HOST:20161 -- $(ts_client http://$HOST:20161/sse) 4; }

ALL=(mcpcore-py mcpcore-ts mcpcore-client mcpcore-restart mcpcore-idle
     asyncmcp-py asyncmcp-default asyncmcp-client asyncmcp-restart asyncmcp-client-restart asyncmcp-ws proxy-restart)
run_scenarios "tcpdump tshark cargo node" -- "$@"

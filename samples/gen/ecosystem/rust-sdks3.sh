#!/usr/bin/env bash
# mcptap ecosystem corpus, group "rust-sdks3": four more Rust MCP crates from crates.io with HTTP transports of their
# own (ultrafast-mcp, prism-mcp-rs, mcp-protocol-sdk, mcpkit + mcpkit-axum), their servers against the official
# Python and TypeScript SDK clients and their clients against the official Python SDK server, captured on loopback
# (127.0.0.1, ports 19650-19669 only).
#
#   sudo bash samples/gen/ecosystem/rust-sdks3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/rust-sdks3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/rust-sdks3-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/rust-sdks3-<scenario>.pcap.txt), each on its own port:
#   ultrafast-py        19650  ultrafast-mcp 202506018.1.0 UltraFastServer::run_streamable_http (defaults, /mcp)
#                              <- Python SDK client
#   ultrafast-ts        19651  the same server <- TS SDK client
#   ultrafast-client    19652  ultrafast-mcp UltraFastClient::connect_streamable_http(base URL; it appends /mcp) -> Python
#                              SDK server (/mcp)
#   ultrafast-self      19665  the ultrafast-mcp client -> the ultrafast-mcp server (base URL)
#   ultrafast-restart   19664  the ultrafast-py server, SIGKILLed and started again while the Python SDK client holds
#                              its session idle (--hold 4) after slow_count; its last add(40,2) goes to the new process
#   prism-py            19653  prism-mcp-rs 3.1.0 McpServer + HttpServerTransport (defaults, protocol mode Auto; POST
#                              /mcp) <- Python SDK client
#   prism-ts            19654  the same server <- TS SDK client
#   prism-client        19655  prism-mcp-rs McpClient::connect_with_http (protocol mode Auto, its default) -> Python SDK
#                              server (/mcp)
#   prism-client-legacy 19656  the same client with ProtocolMode::LegacyOnly -> Python SDK server
#   prism-self          19666  the prism-mcp-rs client (Auto) -> the prism-mcp-rs server (Auto)
#   mps-py              19657  mcp-protocol-sdk 0.5.1 HttpMcpServer + HttpServerTransport (its http_server example;
#                              POST /mcp) <- Python SDK client
#   mps-ts              19658  the same server <- TS SDK client
#   mps-client          19659  mcp-protocol-sdk McpClient + HttpClientTransport(base, SSE URL none) -> Python SDK
#                              server (base http://127.0.0.1:19659: the client appends /mcp and /mcp/notify itself)
#   mps-self            19660  the mcp-protocol-sdk client with its SSE URL (BASE/mcp/events, as its http_client example)
#                              -> the mcp-protocol-sdk server
#   mcpkit-py           19661  mcpkit 0.7.0 handler under mcpkit-axum 0.7.0 McpRouter::serve (defaults, /mcp)
#                              <- Python SDK client
#   mcpkit-ts           19662  the same server <- TS SDK client
#   mcpkit-client       19663  mcpkit Client over mcpkit-transport HttpTransport (defaults) -> Python SDK server
#   prism-py-auto       19667  the prism-py server <- Python SDK client in mode "auto", the SDK's default (server/discover
#                              first), ../rust-sdks2/py_client.py (reused by path)
#   ultrafast-py-auto   19668  the ultrafast-py server <- the same mode-"auto" Python SDK client
#   mcpkit-py-auto      19669  the mcpkit-py server <- the same mode-"auto" Python SDK client
#
# Every client run: initialize (or what the client does instead), tools/list, add(1,2), echo("hello"), slow_count(3)
# with a progressToken where the client sends one, add(40,2), close. Clients: ../proxies2/py_client.py (mcp 2.3.0,
# `Client(url, mode="legacy")`, run with --slow 3), ../rust-sdks2/py_client.py (the same SDK, `--mode auto --slow 3`),
# ../proxies2/ts_client.mjs (TS SDK 1.32.2, `node ts_client.mjs URL 3 0`), and the Rust harnesses' `client`
# subcommands (rust-sdks3/<crate>/src/main.rs). Server for the Rust clients:
# ../py_server.py (Python SDK MCPServer, stateful Streamable HTTP on /mcp). Only mcpkit's tools can send progress
# (Context::progress); ultrafast-mcp, prism-mcp-rs and mcp-protocol-sdk hand their tools no request context.
#
# Needs root (tcpdump), cargo (1.95 here), python3 with venv, node 20 + npm, tcpdump, tshark (the listing,
# rust-sdks3/wire.py). First use builds the four harness crates of the workspace rust-sdks3/ (its own [workspace],
# one Cargo.lock, `cargo build --locked -j 1`, debug) into rust-sdks3/target, makes the sdks group's venv (sdks/.venv)
# and proxies2/node_modules (`npm ci`). All git-ignored. Every scenario runs inside the offline guard (lib.sh
# guard_start/guard_stop). Results and labels: samples/ecosystem/rust-sdks3.md, samples/ecosystem/labels-rust-sdks3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/rust-sdks3"                                     # harness workspace, listing
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures
VPY="$ECO/sdks/.venv/bin/python"
TS_DIR="$ECO/proxies2"                                  # the TS SDK client (and its node_modules)
GROUP=rust-sdks3
DESCRIBE=()                                             # set per scenario: wire.py needs the port
export CARGO_TARGET_DIR="$W/target"
BIN="$CARGO_TARGET_DIR/debug"
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, capture_start/stop, guard_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
export RUST_BACKTRACE=0 RUST_LOG=warn DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false

setup() {
    setup_pysdk
    need_npm "$TS_DIR"
    local c
    for c in ultrafast prism mps mcpkit; do
        [ -x "$BIN/$c-harness" ] || (cd "$W" && cargo build --locked -j 1 -p "$c-harness")
    done
}

# captured NAME PORT SERVER-CMD... -- CLIENT-CMD...: server up on PORT (before the capture, watched in the socket
# table), offline guard, capture of PORT, one client run bounded by `timeout 60`, capture stop, guard stop, all down.
captured() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    free "$port"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    DESCRIBE=("$VPY" "$W/wire.py" "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}

# restarted NAME PORT SERVER-CMD... -- CLIENT-CMD...: as captured, but the client runs in the background; when its log
# says "holding" (the idle pause after slow_count) the server's process group is SIGKILLed, a new server is started on
# the same port with the same command, and the client goes on to its last call against that new process.
restarted() {
    local name=$1 port=$2; shift 2
    local srv=() cpid pa i
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    free "$port"
    bg "$name-server-a" "${srv[@]}"; pa=$LAST_PID
    listening "$port"
    DESCRIBE=("$VPY" "$W/wire.py" "$port")
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
    cleanup
}

py_client() { echo "$VPY" "$TS_DIR/py_client.py" "$1" --slow 3; }
py_auto()   { echo "$VPY" "$ECO/rust-sdks2/py_client.py" "$1" --mode auto --slow 3; }
ts_client() { echo node "$TS_DIR/ts_client.mjs" "$1" 3 0; }
py_server() { echo "$VPY" "$ECO/py_server.py" "$1" --name "rust-sdks3-py-server"; }

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_client/*_server helpers print word lists without spaces inside words
scenario_ultrafast-py()        { captured ultrafast-py 19650 "$BIN/ultrafast-harness" server --port 19650 -- $(py_client http://$HOST:19650/mcp); }
scenario_ultrafast-ts()        { captured ultrafast-ts 19651 "$BIN/ultrafast-harness" server --port 19651 -- $(ts_client http://$HOST:19651/mcp); }
scenario_ultrafast-client()    { captured ultrafast-client 19652 $(py_server 19652) -- "$BIN/ultrafast-harness" client --url http://$HOST:19652; }
scenario_ultrafast-self()      { captured ultrafast-self 19665 "$BIN/ultrafast-harness" server --port 19665 -- "$BIN/ultrafast-harness" client --url http://$HOST:19665; }
scenario_ultrafast-restart()   { restarted ultrafast-restart 19664 "$BIN/ultrafast-harness" server --port 19664 -- $(py_client http://$HOST:19664/mcp) --hold 4; }
scenario_prism-self()          { captured prism-self 19666 "$BIN/prism-harness" server --port 19666 -- "$BIN/prism-harness" client --url http://$HOST:19666/mcp; }
scenario_prism-py()            { captured prism-py 19653 "$BIN/prism-harness" server --port 19653 -- $(py_client http://$HOST:19653/mcp); }
scenario_prism-ts()            { captured prism-ts 19654 "$BIN/prism-harness" server --port 19654 -- $(ts_client http://$HOST:19654/mcp); }
scenario_prism-client()        { captured prism-client 19655 $(py_server 19655) -- "$BIN/prism-harness" client --url http://$HOST:19655/mcp; }
scenario_prism-client-legacy() { captured prism-client-legacy 19656 $(py_server 19656) -- "$BIN/prism-harness" client --url http://$HOST:19656/mcp --mode legacy; }
scenario_mps-py()              { captured mps-py 19657 "$BIN/mps-harness" server --port 19657 -- $(py_client http://$HOST:19657/mcp); }
scenario_mps-ts()              { captured mps-ts 19658 "$BIN/mps-harness" server --port 19658 -- $(ts_client http://$HOST:19658/mcp); }
scenario_mps-client()          { captured mps-client 19659 $(py_server 19659) -- "$BIN/mps-harness" client --url http://$HOST:19659; }
scenario_mps-self()            { captured mps-self 19660 "$BIN/mps-harness" server --port 19660 -- "$BIN/mps-harness" client --url http://$HOST:19660 --sse; }
scenario_mcpkit-py()           { captured mcpkit-py 19661 "$BIN/mcpkit-harness" server --port 19661 -- $(py_client http://$HOST:19661/mcp); }
scenario_mcpkit-ts()           { captured mcpkit-ts 19662 "$BIN/mcpkit-harness" server --port 19662 -- $(ts_client http://$HOST:19662/mcp); }
scenario_mcpkit-client()       { captured mcpkit-client 19663 $(py_server 19663) -- "$BIN/mcpkit-harness" client --url http://$HOST:19663/mcp; }
scenario_prism-py-auto()       { captured prism-py-auto 19667 "$BIN/prism-harness" server --port 19667 -- $(py_auto http://$HOST:19667/mcp); }
scenario_ultrafast-py-auto()   { captured ultrafast-py-auto 19668 "$BIN/ultrafast-harness" server --port 19668 -- $(py_auto http://$HOST:19668/mcp); }
scenario_mcpkit-py-auto()      { captured mcpkit-py-auto 19669 "$BIN/mcpkit-harness" server --port 19669 -- $(py_auto http://$HOST:19669/mcp); }

ALL=(ultrafast-py ultrafast-ts ultrafast-client ultrafast-self ultrafast-restart prism-py prism-ts prism-client prism-client-legacy
     prism-self
     mps-py mps-ts mps-client mps-self mcpkit-py mcpkit-ts mcpkit-client prism-py-auto ultrafast-py-auto mcpkit-py-auto)

run_scenarios "tcpdump tshark node npm cargo" -- "$@"

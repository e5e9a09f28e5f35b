#!/usr/bin/env bash
# mcptap ecosystem corpus, group "rust5": three more Rust MCP crates from crates.io with an HTTP transport, none named
# by an earlier group: model-context-protocol 0.2.2 (tsharp; an actix-web JSON-RPC server on POST /rpc and a reqwest
# client), echo-mcp 0.1.1 (a published rmcp 1.x binary with a Streamable HTTP mode) and mcp-transport-rs 0.1.0
# (arthasyou/mcp-rs; a legacy HTTP+SSE client), against the official Python and TypeScript SDK clients and the
# official Python SDK server; captured on loopback (127.0.0.1, ports 20330-20349 only).
#
#   sudo bash samples/gen/ecosystem/rust5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/rust5.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/rust5-<scenario>.pcap, listing samples/gen/wire/ecosystem/rust5-<scenario>.pcap.txt),
# each on its own port:
#   mcpproto-py         20330  model-context-protocol McpHttpServer (rust5/mcpproto: POST /rpc) <- Python SDK client
#                              (Streamable HTTP, URL .../rpc)
#   mcpproto-ts         20331  the same server <- TS SDK client (StreamableHTTPClientTransport, URL .../rpc)
#   mcpproto-client     20332  model-context-protocol HttpTransportAdapter (the crate's client) -> its own server
#   mcpproto-client-py  20333  the crate's client -> Python SDK server (../py_server.py, Streamable HTTP /mcp)
#   mcpproto-restart    20334  the mcpproto server <- Python SDK client holding 4 s (--hold 4) before its last
#                              add(40,2); the server is SIGKILLed and started again during the hold
#   echo-py             20335  echo-mcp 0.1.1 `http --bind` (rmcp 1.2.0 Streamable HTTP /mcp) <- Python SDK client
#                              (--echo-field message: echo-mcp's one tool takes `message`)
#   echo-ts             20336  echo-mcp <- TS SDK client, steps rust5/steps-echo.json (echo, add, echo with the wrong
#                              argument, no_such_tool, echo)
#   echo-restart        20337  echo-mcp <- Python SDK client --hold 4, echo-mcp SIGKILLed and started again
#   echo-ts-restart     20338  echo-mcp <- TS SDK client paused before its last echo (step 4; READY/GO files),
#                              echo-mcp SIGKILLed and started again
#   mtrs-sse            20339  mcp-transport-rs SseTransport (rust5/mtrs) -> Python SDK server --sse (GET /sse,
#                              POST /messages/?session_id=)
#   mtrs-restart        20340  the same, --hold 4, the Python SDK server SIGKILLed and started again during the hold
#
# Clients: rust5/py_client.py (mcp 2.3.0, `Client(URL, mode="legacy")`, --streamable; copied from ../rust4),
# rust5/ts_client.mjs (TS SDK 1.32.2, copied from ../jsservers7/j7_client.mjs; steps rust5/steps.json), and the
# harness binaries (rust5/<crate>/src/main.rs). Each session: initialize, tools/list, add(1,2), echo("hello"),
# slow_count(3) (a progressToken where the client sends one), no_such_tool, fail, add(40,2), close. The servers' tools:
# mcpproto add, echo, slow_count, fail; echo-mcp only echo; the Python SDK server (../pysdk_tools.py) add, echo, slow_count.
#
# Needs root (tcpdump), cargo (1.95 here), python3 with venv, node 20 + npm, tcpdump, tshark (the listing,
# ../agents/wire.py). First use builds the workspace rust5/ (`cargo build --locked -j 2`, debug, into rust5/run/target),
# installs echo-mcp 0.1.1 (`cargo install --locked`, its published Cargo.lock) into rust5/run/bin, makes the sdks
# group's venv (sdks/.venv) and rust5/node_modules (`npm ci`). All git-ignored (rust5/.gitignore). Every scenario runs
# inside the offline guard (lib.sh guard_start/guard_stop). Results and labels: samples/ecosystem/rust5.md,
# samples/ecosystem/labels-rust5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/rust5"                                          # harness workspace, clients
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures, cargo targets
VPY="$ECO/sdks/.venv/bin/python"
GROUP=rust5
DESCRIBE=()
export CARGO_TARGET_DIR="$RUN/target"
BIN="$CARGO_TARGET_DIR/debug"
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
export RUST_BACKTRACE=0 RUST_LOG=warn DO_NOT_TRACK=1 NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false \
    OTEL_SDK_DISABLED=true

MP="$BIN/mcpproto-harness"
MT="$BIN/mtrs-harness"
ECHO_MCP="$RUN/bin/echo-mcp"

setup() {
    setup_pysdk
    need_npm "$W"
    local c
    for c in mcpproto mtrs; do
        [ -x "$BIN/$c-harness" ] || (cd "$W" && nice -n 10 cargo build --locked -j 2 -p "$c-harness")
    done
    [ -x "$ECHO_MCP" ] || CARGO_TARGET_DIR="$RUN/target-echo" nice -n 10 cargo install --locked -j 2 --root "$RUN" echo-mcp@0.1.1
}

# down: cleanup, then KILL what is left a second later (actix servers linger after TERM).
down() {
    local p pids=("${PIDS[@]:-}")
    cleanup
    sleep 1
    for p in "${pids[@]}"; do [ -n "$p" ] && { kill -KILL -- "-$p" 2>/dev/null || kill -KILL "$p" 2>/dev/null || true; }; done
}

# captured NAME PORT SERVER-CMD... -- CLIENT-CMD...: server up on PORT (watched in the socket table), offline guard,
# capture of PORT, one client run bounded by `timeout 60`, capture stop, guard stop, all down.
captured() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    free "$port"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    guard_stop "$name"
    down
}

# restarted NAME PORT SERVER-CMD... -- CLIENT-CMD...: as captured, but the client runs in the background; when its log
# says "holding" (py_client.py, mtrs) or its READY file appears (ts_client.mjs) the server's process group is SIGKILLed,
# a new server is started on the same port with the same command (watched in the socket table, no probe), GO is
# created, and the client goes on against the new process.
restarted() {
    local name=$1 port=$2; shift 2
    local srv=() cpid pa i
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    rm -f "$RUN/$name.ready" "$RUN/$name.go"
    free "$port"
    bg "$name-server-a" "${srv[@]}"; pa=$LAST_PID
    listening "$port"
    DESCRIBE=("$VPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    capture_start "$name" "$port"
    : >"$RUN/$name-client.log"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 & cpid=$!
    for i in $(seq 1 300); do
        { grep -q holding "$RUN/$name-client.log" || [ -e "$RUN/$name.ready" ] || ! kill -0 "$cpid" 2>/dev/null; } && break
        sleep 0.1
    done
    if grep -q holding "$RUN/$name-client.log" || [ -e "$RUN/$name.ready" ]; then
        sleep 0.5
        echo "   restart point reached: SIGKILL server a, start server b on $port"
        stop "$pa" KILL
        bg "$name-server-b" "${srv[@]}"
        listening "$port"
        touch "$RUN/$name.go"
    else
        echo "   the client did not reach the restart point: no restart" >&2
    fi
    wait "$cpid" || echo "   ($name-client exited with $?)"
    sed "s/^/   $name-client: /" "$RUN/$name-client.log" | cut -c1-150 | tail -20
    capture_stop "$name"
    guard_stop "$name"
    down
}

py_client() { echo "$VPY" "$W/py_client.py" "$1" --streamable; }
ts_client() { echo node "$W/ts_client.mjs" "$1" "$W/steps.json" rust5; }
ts_echo_client() { echo node "$W/ts_client.mjs" "$1" "$W/steps-echo.json" rust5; }
py_server() { echo "$VPY" "$ECO/py_server.py" "$1" --name "rust5-py-server"; }
py_server_sse() { echo "$VPY" "$ECO/py_server.py" "$1" --sse --name "rust5-py-server"; }

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_client/*_server helpers print word lists without spaces inside words
scenario_mcpproto-py()        { captured mcpproto-py 20330 "$MP" server 20330 -- $(py_client http://$HOST:20330/rpc); }
scenario_mcpproto-ts()        { captured mcpproto-ts 20331 "$MP" server 20331 -- $(ts_client http://$HOST:20331/rpc); }
scenario_mcpproto-client()    { captured mcpproto-client 20332 "$MP" server 20332 -- "$MP" client http://$HOST:20332/rpc; }
scenario_mcpproto-client-py() { captured mcpproto-client-py 20333 $(py_server 20333) -- "$MP" client http://$HOST:20333/mcp; }
scenario_mcpproto-restart()   { restarted mcpproto-restart 20334 "$MP" server 20334 -- $(py_client http://$HOST:20334/rpc) --hold 4; }
scenario_echo-py()            { captured echo-py 20335 "$ECHO_MCP" http --bind $HOST:20335 -- $(py_client http://$HOST:20335/mcp) --echo-field message; }
scenario_echo-ts()            { captured echo-ts 20336 "$ECHO_MCP" http --bind $HOST:20336 -- $(ts_echo_client http://$HOST:20336/mcp); }
scenario_echo-restart()       { restarted echo-restart 20337 "$ECHO_MCP" http --bind $HOST:20337 -- $(py_client http://$HOST:20337/mcp) --echo-field message --hold 4; }
scenario_echo-ts-restart()    { restarted echo-ts-restart 20338 "$ECHO_MCP" http --bind $HOST:20338 -- $(ts_echo_client http://$HOST:20338/mcp) 4 "$RUN/echo-ts-restart.ready" "$RUN/echo-ts-restart.go"; }
scenario_mtrs-sse()           { captured mtrs-sse 20339 $(py_server_sse 20339) -- "$MT" http://$HOST:20339/sse; }
scenario_mtrs-restart()       { restarted mtrs-restart 20340 $(py_server_sse 20340) -- "$MT" http://$HOST:20340/sse --hold 4; }

ALL=(mcpproto-py mcpproto-ts mcpproto-client mcpproto-client-py mcpproto-restart echo-py echo-ts echo-restart
     echo-ts-restart mtrs-sse mtrs-restart)
run_scenarios "tcpdump tshark cargo node" -- "$@"

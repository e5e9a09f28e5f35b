#!/usr/bin/env bash
# mcptap ecosystem corpus, group "rust-sdks2": more Rust MCP implementations from crates.io (tower-mcp, rmcp-actix-web,
# turul-mcp-server/-client), their servers against the official Python and TypeScript SDK clients and their clients
# against the official Python SDK server, captured on loopback (127.0.0.1, ports 19390-19409 only).
#
#   sudo bash samples/gen/ecosystem/rust-sdks2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/rust-sdks2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/rust-sdks2-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/rust-sdks2-<scenario>.pcap.txt), each on its own port:
#   tower-mcp-py          19390  tower-mcp 0.25.0 HttpTransport (defaults: JSON replies, optional sessions, in-memory
#                                event store; endpoint /) <- Python SDK client (mode "auto", its default)
#   tower-mcp-ts          19391  the same server <- TS SDK client (StreamableHTTPClientTransport)
#   tower-mcp-sse-py      19392  tower-mcp with .sse_responses(true) (every POST reply as SSE) <- Python SDK client
#   tower-mcp-client      19393  tower-mcp McpClient + HttpClientTransport (defaults) -> Python SDK server (/mcp)
#   actix-py              19394  rmcp-actix-web 0.13.2 (rmcp 3.11.0 on actix-web 4; the crate example's builder:
#                                stateful_mode(true), sse_keep_alive(30 s); endpoint /) <- Python SDK client
#   actix-ts              19395  the same server <- TS SDK client
#   actix-py-legacy       19400  the actix-py server <- Python SDK client with mode "legacy" (straight to initialize: the
#                                stateful session path), 35 s idle after slow_count so the 30 s SSE keep-alive shows
#   actix-stateless-py    19396  rmcp-actix-web with stateful_mode(false), json_response(true) <- Python SDK client
#   turul-py              19397  turul-mcp-server 0.4.5 (default features: the 2026-07-28 stateless core; /mcp)
#                                <- Python SDK client
#   turul-ts              19398  the same server <- TS SDK client (2025-era only)
#   turul-client          19399  turul-mcp-client 0.4.6 (default, "bilingual") -> Python SDK server (/mcp)
#
# Every client run: (initialize or server/discover,) tools/list, add(1,2), echo("hello"), slow_count(3) with a
# progressToken (3 notifications/progress 0.1 s apart), add(40,2), close. Clients: rust-sdks2/py_client.py (mcp 2.3.0,
# `Client(url, mode="auto")`), ../proxies2/ts_client.mjs (TS SDK 1.32.2, reused: `node ts_client.mjs URL 3 0`), and
# the Rust harnesses' `client` subcommands. Server for the Rust clients: ../py_server.py (Python SDK MCPServer, stateful
# Streamable HTTP on /mcp).
#
# Needs root (tcpdump), cargo (1.95 here), python3 with venv, node 20 + npm, tcpdump, tshark (the listing,
# rust-sdks2/wire.py). First use builds the three harness crates in rust-sdks2/<crate>/ (each its own [workspace] and
# Cargo.lock, `cargo build --locked -j 2`, one after the other) into ONE shared target directory rust-sdks2/target,
# makes the sdks group's venv (sdks/.venv) and proxies2/node_modules (`npm ci`). All git-ignored.
# Every scenario runs inside the offline guard (lib.sh guard_start/guard_stop).
# Results and labels: samples/ecosystem/rust-sdks2.md, samples/ecosystem/labels-rust-sdks2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/rust-sdks2"                                     # harness crates, Python client, listing
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, offline-guard captures
VPY="$ECO/sdks/.venv/bin/python"
TS_DIR="$ECO/proxies2"                                  # the TS SDK client (and its node_modules)
GROUP=rust-sdks2
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
    for c in tower-mcp rmcp-actix-web turul; do
        [ -x "$BIN/$c-harness" ] || (cd "$W/$c" && cargo build --locked -j 2)
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

py_client() { echo "$VPY" "$W/py_client.py" "$1"; }
ts_client() { echo node "$TS_DIR/ts_client.mjs" "$1" 3 0; }
py_server() { echo "$VPY" "$ECO/py_server.py" "$1" --name "rust-sdks2-py-server"; }

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_client/*_server helpers print word lists without spaces inside words
scenario_tower-mcp-py()       { captured tower-mcp-py 19390 "$BIN/tower-mcp-harness" server --port 19390 -- $(py_client http://$HOST:19390/); }
scenario_tower-mcp-ts()       { captured tower-mcp-ts 19391 "$BIN/tower-mcp-harness" server --port 19391 -- $(ts_client http://$HOST:19391/); }
scenario_tower-mcp-sse-py()   { captured tower-mcp-sse-py 19392 "$BIN/tower-mcp-harness" server --port 19392 --sse-responses -- $(py_client http://$HOST:19392/); }
scenario_tower-mcp-client()   { captured tower-mcp-client 19393 $(py_server 19393) -- "$BIN/tower-mcp-harness" client --url http://$HOST:19393/mcp; }
scenario_actix-py()           { captured actix-py 19394 "$BIN/rmcp-actix-web-harness" server --port 19394 -- $(py_client http://$HOST:19394/); }
scenario_actix-ts()           { captured actix-ts 19395 "$BIN/rmcp-actix-web-harness" server --port 19395 -- $(ts_client http://$HOST:19395/); }
scenario_actix-py-legacy()    { captured actix-py-legacy 19400 "$BIN/rmcp-actix-web-harness" server --port 19400 -- $(py_client http://$HOST:19400/) --mode legacy --hold 35; }
scenario_actix-stateless-py() { captured actix-stateless-py 19396 "$BIN/rmcp-actix-web-harness" server --port 19396 --stateless-json -- $(py_client http://$HOST:19396/); }
scenario_turul-py()           { captured turul-py 19397 "$BIN/turul-harness" server --port 19397 -- $(py_client http://$HOST:19397/mcp); }
scenario_turul-ts()           { captured turul-ts 19398 "$BIN/turul-harness" server --port 19398 -- $(ts_client http://$HOST:19398/mcp); }
scenario_turul-client()       { captured turul-client 19399 $(py_server 19399) -- "$BIN/turul-harness" client --url http://$HOST:19399/mcp; }

ALL=(tower-mcp-py tower-mcp-ts tower-mcp-sse-py tower-mcp-client actix-py actix-ts actix-py-legacy actix-stateless-py turul-py
     turul-ts turul-client)

run_scenarios "tcpdump tshark node npm cargo" -- "$@"

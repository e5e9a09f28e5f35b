#!/usr/bin/env bash
# mcptap ecosystem corpus, group "rust-sdks": real traffic from Rust MCP implementations other than rmcp (which the
# "sdks" group covers), captured on loopback (127.0.0.1, ports 18750-18799 only).
#
#   sudo bash samples/gen/ecosystem/rust-sdks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/rust-sdks.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/rust-sdks-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   rust-mcp-sdk            rust-mcp-sdk client (Streamable HTTP) -> rust-mcp-sdk axum server (/mcp)
#   rust-mcp-sdk-sse        rust-mcp-sdk legacy SSE client -> the same server's HTTP+SSE endpoint (/sse, /messages)
#   rust-mcp-sdk-to-pysdk   rust-mcp-sdk client (Streamable HTTP) -> Python SDK server (mcp 2.3.0, group sdks)
#   pmcp                    pmcp client (StreamableHttpTransport, defaults) -> pmcp StreamableHttpServer (defaults; endpoint /)
#   rust-mcp-sdk-1          rust-mcp-sdk 1.x client (Streamable HTTP, 2025 era) -> rust-mcp-sdk 1.x axum server (stateful
#                           defaults, /mcp)
#   rust-mcp-sdk-1-eventstore  the same, the server with the SDK's InMemoryEventStore (resumability)
#   turbomcp                turbomcp client (Client::connect_http, defaults) -> turbomcp run_http server (defaults, /mcp)
#
# Each client: (initialize when its protocol has one,) tools/list, add(1,2), echo("hello"), slow_count(3) with a
# progressToken (3 notifications/progress 0.1 s apart), add(40,2), close.
#
# Needs root (tcpdump), cargo, python3 >= 3.11, ss, tcpdump, tshark (describe.py). First use builds
# rust-sdks/<crate>/target (cargo build --locked, debug) and, for rust-mcp-sdk-to-pysdk, the sdks group's venv
# (sdks/.venv from sdks/requirements.txt); describe.py runs in samples/gen/.venv (samples/gen/requirements.txt).
# All of these are git-ignored. Results and labels: samples/ecosystem/rust-sdks.md, labels-rust-sdks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/rust-sdks"                                      # harness code and pins (one cargo project per crate)
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
DESC_PY="$GEN/.venv/bin/python"                         # runs describe.py
SDKS_PY="$ECO/sdks/.venv/bin/python"                    # Python SDK server of the sdks group
SP="$ECO/sdks/py/sdks_py.py"
RMS="$W/rust-mcp-sdk/target/debug/rust-mcp-sdk-harness"
PMCP="$W/pmcp/target/debug/pmcp-harness"
RMS1="$W/rust-mcp-sdk-1/target/debug/rust-mcp-sdk-1-harness"
TMCP="$W/turbomcp/target/debug/turbomcp-harness"
RUN="$W/run"                                            # scratch: logs
GROUP=rust-sdks
DESCRIBE=("$DESC_PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
export RUST_BACKTRACE=0

setup() {
    need_venv "$GEN/.venv" "$GEN/requirements.txt"
    local p
    for p in rust-mcp-sdk pmcp rust-mcp-sdk-1 turbomcp; do
        if [ ! -x "$W/$p/target/debug/$p-harness" ]; then
            (cd "$W/$p" && CARGO_TARGET_DIR="$W/$p/target" cargo build -j1 --locked)
        fi
    done
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_rust-mcp-sdk() { capture_run rust-mcp-sdk 18750 "$RMS" server --port 18750 -- "$RMS" client --url http://127.0.0.1:18750/mcp; }

scenario_rust-mcp-sdk-sse() { capture_run rust-mcp-sdk-sse 18751 "$RMS" server --port 18751 -- "$RMS" client --url http://127.0.0.1:18751/sse --sse; }

scenario_rust-mcp-sdk-to-pysdk() { setup_pysdk; capture_run rust-mcp-sdk-to-pysdk 18752 "$SDKS_PY" "$SP" pyserver --port 18752 -- "$RMS" client --url http://127.0.0.1:18752/mcp; }

# pmcp serves on / only.
scenario_pmcp() { capture_run pmcp 18760 "$PMCP" server --port 18760 -- "$PMCP" client --url http://127.0.0.1:18760/; }

# rust-mcp-sdk 1.1.0 (the last 1.x release, 2025-era protocol); the same server with an event store.
scenario_rust-mcp-sdk-1() { capture_run rust-mcp-sdk-1 18770 "$RMS1" server --port 18770 -- "$RMS1" client --url http://127.0.0.1:18770/mcp; }

scenario_rust-mcp-sdk-1-eventstore() { capture_run rust-mcp-sdk-1-eventstore 18771 "$RMS1" server --port 18771 --event-store -- "$RMS1" client --url http://127.0.0.1:18771/mcp; }

# turbomcp 3.6.0; its client appends /mcp to the base URL.
scenario_turbomcp() { capture_run turbomcp 18780 "$TMCP" server --port 18780 -- "$TMCP" client --url http://127.0.0.1:18780; }

ALL=(rust-mcp-sdk rust-mcp-sdk-sse rust-mcp-sdk-to-pysdk pmcp rust-mcp-sdk-1 rust-mcp-sdk-1-eventstore turbomcp)

run_scenarios "tcpdump tshark ss" -- "$@"

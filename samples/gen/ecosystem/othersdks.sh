#!/usr/bin/env bash
# mcptap ecosystem corpus, group "othersdks": the official Ruby and PHP MCP SDKs, against the official Python and
# TypeScript SDK clients and the Python SDK server. Captured on loopback (127.0.0.1, ports 19590-19609):
#   - **Ruby SDK** (gem mcp 1.3.0, github modelcontextprotocol/ruby-sdk v1.3.0, loaded by path from othersdks/src):
#     MCP::Server::Transports::StreamableHTTPTransport as the whole Rack app under WEBrick (rackup 2.3.1 + rack 3.2.7
#     from src/, ruby-webrick 1.8.1 from Debian), othersdks/ruby_server.rb: stateful with SSE replies (default),
#     --json (enable_json_response) and --stateless; and MCP::Client::HTTP (Faraday 2.14.2 from src/),
#     othersdks/ruby_client.rb;
#   - **PHP SDK** (mcp/sdk 0.7.1, github modelcontextprotocol/php-sdk v0.7.1, by path): StreamableHttpTransport under
#     PHP's built-in server (`php -S`, php 8.2 from Debian), othersdks/php_server.php, sessions in a FileSessionStore.
#
#   sudo bash samples/gen/ecosystem/othersdks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/othersdks.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/othersdks-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/othersdks-<scenario>.pcap.txt):
#   rb-py            19590: Python SDK client (mcp 2.3.0, ../proxies2/py_client.py --slow 3) -> Ruby server (stateful, SSE)
#   rb-ts            19591: TypeScript SDK client (1.32.2, ../proxies2/ts_client.mjs, slow_count 3) -> the same
#   rb-json-py       19592: Python SDK client -> Ruby server --json (enable_json_response: true)
#   rb-json-ts       19593: TypeScript SDK client -> the same
#   rb-stateless-py  19594: Python SDK client -> Ruby server --stateless
#   rb-stateless-ts  19595: TypeScript SDK client -> the same
#   rb-restart-py    19596: Python SDK client (--slow 3 --hold 4) -> Ruby server (stateful), restarted (SIGINT, new
#                    process on the same port) 2 s into the client's hold: its add(40,2) goes out with the old
#                    Mcp-Session-Id
#   rbclient-py      19597: Ruby SDK client (othersdks/ruby_client.rb, automatic negotiation) -> Python SDK server
#                    (../py_server.py, streamable_http_app, stateful)
#   rbclient-legacy-py 19598: Ruby SDK client --legacy (connect(mode: :legacy)) -> the same
#   rbclient-rb      19599: Ruby SDK client (automatic negotiation) -> Ruby server (stateful)
#   php-py           19600: Python SDK client -> PHP server under `php -S`
#   php-ts           19601: TypeScript SDK client -> the same
#   php-restart-ts   19602: TypeScript SDK client (slow_count 3, hold 4) -> PHP server, restarted 2 s into the hold
#                    (its sessions live in files: they survive the restart)
#
# Each client run is bounded (timeout 60 here; 30-40 s inside the clients). Each server is up before its capture
# starts (its port seen listening in the socket table, no probe) and stopped after it. No network beyond
# 127.0.0.1: DO_NOT_TRACK=1; none of these programs has telemetry of its own; a guard capture on every interface
# (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark, ss, ruby 3.1 + ruby-webrick + ruby-hana + ruby-regexp-parser +
# ruby-simpleidn, php-cli 8.2 + php-nyholm-psr7 + php-psr-{log,container,event-dispatcher,http-message,http-factory,
# http-client} + php-symfony-{uid,finder,deprecation-contracts} + php-phpdocumentor-reflection-docblock (Debian 12),
# node 20 + npm, python3 (3.11) with venv, and the pinned sources in othersdks/src (othersdks/SOURCES; laid out by
# `bash othersdks/sources.sh MIRROR`, see there). First use makes the sdks group's venv sdks/.venv (the Python SDK
# 2.3.0 client and server; also runs wire.py) and proxies2/node_modules (`npm ci`). All git-ignored. Results and
# labels: samples/ecosystem/othersdks.md, samples/ecosystem/labels-othersdks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/othersdks"                                      # servers, client, pins, sources
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures, PHP sessions
GROUP=othersdks
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client and server; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")       # URL [--sse] [--slow N] [--hold S]
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N] [HOLD_S]
RB_CLIENT=(ruby "$W/ruby_client.rb")                    # URL [SLOW_N] [--legacy]
RB_SERVER=(ruby "$W/ruby_server.rb")                    # PORT [--stateless] [--json]
PY_SERVER=("$SDKPY" "$ECO/py_server.py")                # PORT --name NAME
php_server() { echo env "MCP_SESSIONS=$RUN/php-sessions-$1" php -S "$HOST:$1" "$W/php_server.php"; }

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    [ -d "$W/src/ruby-sdk/lib" ] && [ -d "$W/src/php-sdk/src" ] || {
        echo "no sources in othersdks/src: fetch the repositories of othersdks/SOURCES, then bash othersdks/sources.sh MIRROR" >&2
        exit 1
    }
}

# start NAME PORT CMD...: a server up on PORT (listening, no probe).
start() {
    local name=$1 port=$2; shift 2
    bg "$name-server" "$@"
    listening "$port"
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

begin() {   # begin NAME PORT: guard on, port free, fresh logs and PHP sessions
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$2")
    guard_start "$1"
    free "$2"
    : >"$RUN/$1-server.log"
    rm -rf "$RUN/php-sessions-$2"
}
finish() {  # finish NAME
    down
    cleanup
    sleep 1
    guard_stop "$1"
    grep -avE '^\s*$' "$RUN/$1-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT, capture of PORT, one bounded
# client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    begin "$name" "$port"
    start "$name" "$port" "${srv[@]}"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    finish "$name"
}

# restart NAME PORT SERVER-CMD... -- CLIENT-CMD...: as scenario, but the client runs in the background and the server
# is stopped (SIGINT to its process group, then SIGKILL) 3 s after the client started and a new one started on the
# same port; the client's run (bounded by timeout 60) is waited for.
restart() {
    local name=$1 port=$2; shift 2
    local srv=() cpid rc=0
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    begin "$name" "$port"
    start "$name" "$port" "${srv[@]}"
    sleep 2
    capture_start "$name" "$port"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 3
    echo "   restarting the server"
    down
    PIDS=()
    free "$port"
    start "$name" "$port" "${srv[@]}"
    wait "$cpid" || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    finish "$name"
}

U() { echo "http://$HOST:$1/mcp"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_rb-py()           { scenario rb-py 19590 "${RB_SERVER[@]}" 19590 -- "${PY_CLIENT[@]}" "$(U 19590)" --slow 3; }
scenario_rb-ts()           { scenario rb-ts 19591 "${RB_SERVER[@]}" 19591 -- "${TS_CLIENT[@]}" "$(U 19591)" 3; }
scenario_rb-json-py()      { scenario rb-json-py 19592 "${RB_SERVER[@]}" 19592 --json -- "${PY_CLIENT[@]}" "$(U 19592)" --slow 3; }
scenario_rb-json-ts()      { scenario rb-json-ts 19593 "${RB_SERVER[@]}" 19593 --json -- "${TS_CLIENT[@]}" "$(U 19593)" 3; }
scenario_rb-stateless-py() { scenario rb-stateless-py 19594 "${RB_SERVER[@]}" 19594 --stateless -- "${PY_CLIENT[@]}" "$(U 19594)" --slow 3; }
scenario_rb-stateless-ts() { scenario rb-stateless-ts 19595 "${RB_SERVER[@]}" 19595 --stateless -- "${TS_CLIENT[@]}" "$(U 19595)" 3; }
scenario_rb-restart-py()   { restart rb-restart-py 19596 "${RB_SERVER[@]}" 19596 -- "${PY_CLIENT[@]}" "$(U 19596)" --slow 3 --hold 4; }
scenario_rbclient-py() {
    scenario rbclient-py 19597 "${PY_SERVER[@]}" 19597 --name "othersdks-py-server" -- "${RB_CLIENT[@]}" "$(U 19597)" 3
}
scenario_rbclient-legacy-py() {
    scenario rbclient-legacy-py 19598 "${PY_SERVER[@]}" 19598 --name "othersdks-py-server" -- "${RB_CLIENT[@]}" "$(U 19598)" 3 --legacy
}
scenario_rbclient-rb()     { scenario rbclient-rb 19599 "${RB_SERVER[@]}" 19599 -- "${RB_CLIENT[@]}" "$(U 19599)" 3; }
# shellcheck disable=SC2046
scenario_php-py()          { scenario php-py 19600 $(php_server 19600) -- "${PY_CLIENT[@]}" "$(U 19600)" --slow 3; }
# shellcheck disable=SC2046
scenario_php-ts()          { scenario php-ts 19601 $(php_server 19601) -- "${TS_CLIENT[@]}" "$(U 19601)" 3; }
# shellcheck disable=SC2046
scenario_php-restart-ts()  { restart php-restart-ts 19602 $(php_server 19602) -- "${TS_CLIENT[@]}" "$(U 19602)" 3 4; }

ALL=(rb-py rb-ts rb-json-py rb-json-ts rb-stateless-py rb-stateless-ts rb-restart-py rbclient-py rbclient-legacy-py
     rbclient-rb php-py php-ts php-restart-ts)

run_scenarios "tcpdump tshark ss node npm ruby php" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "natives": MCP-over-HTTP implementations in languages the corpus had not had (C++
# and Perl), each with HTTP code of its own, driven by the official Python and TypeScript SDK clients, and their own
# clients against the Python SDK server. Captured on loopback (127.0.0.1, ports 19810-19829):
#   - **cpp-mcp** (github hkr04/cpp-mcp, master f1117d5 of 2026-07-15; C++17 on the cpp-httplib it bundles, built with
#     g++ by natives/build.sh): `mcp::server` serves Streamable HTTP on /mcp and the legacy HTTP+SSE transport on
#     /sse + /message in one process (natives/cpp_server.cpp); `mcp::sse_client`, its HTTP+SSE client
#     (natives/cpp_sse_client.cpp);
#   - **MCP for Perl** (github mojolicious/mojo-mcp tag v0.12, the CPAN `MCP` distribution by Sebastian Riedel) on
#     Mojolicious 9.48 (github mojolicious/mojo tag v9.48, lib/ on PERL5LIB): MCP::Server::Transport::HTTP under
#     Mojolicious' own HTTP server (natives/mojo_server.pl, `streaming => 1` or the default `--plain`), and
#     MCP::Client on Mojo::UserAgent (natives/mojo_client.pl);
#   - **fast-mcp** 1.6.0 (github yjacquin/fast-mcp, a third-party Ruby implementation, not the official Ruby SDK) as
#     Rack middleware under Debian's Puma 5.6.5: its own HTTP+SSE transport (GET /mcp/sse on the hijacked socket, POST
#     /mcp/messages?session_id=); it has no Streamable HTTP (natives/fastmcp_server.rb). dry-schema 1.13.4 and its
#     dry-rb dependencies come from GitHub trees on the load path (natives/ruby/, see natives/SOURCES).
#
#   sudo bash samples/gen/ecosystem/natives.sh             # every scenario
#   sudo bash samples/gen/ecosystem/natives.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/natives-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/natives-<scenario>.pcap.txt):
#   cpp-py          port 19810: the Python SDK client (mcp 2.3.0, ../proxies2/py_client.py --slow 3) -> cpp-mcp /mcp
#   cpp-ts          port 19811: the TypeScript SDK client (1.32.2, ../proxies2/ts_client.mjs, slow_count 3) -> the same
#   cpp-sse-py      port 19812: the Python SDK client over HTTP+SSE (py_client.py --sse) -> cpp-mcp GET /sse
#   cpp-sse-ts      port 19813: the TypeScript SDK client over HTTP+SSE (natives/ts_sse_client.mjs) -> the same
#   cpp-restart-ts  port 19814: the TypeScript SDK client (slow_count 3, hold 8 s) -> cpp-mcp /mcp; during the hold
#                   the server is stopped (SIGINT, then SIGKILL), its port seen free in the socket table, and started
#                   again: the last add(40,2) and the DELETE carry the old session id to the new process
#   cpp-client      port 19815: cpp-mcp's sse_client -> the Python SDK server's HTTP+SSE app (../py_server.py --sse)
#   cpp-client-caps port 19821: the same, the client given capabilities {} first (cpp_sse_client --caps)
#   mojo-py         port 19816: the Python SDK client (--slow 3) -> Perl MCP /mcp, streaming => 1
#   mojo-ts         port 19817: the TypeScript SDK client (slow_count 3) -> the same
#   mojo-restart-py port 19818: as cpp-restart-ts, with the Python SDK client (--slow 3 --hold 8) against Perl MCP
#   mojo-plain-ts   port 19819: the TypeScript SDK client (slow_count 3) -> Perl MCP /mcp with the distribution's
#                   default to_action (no streaming: POST only, no session state)
#   mojo-client     port 19820: Perl MCP::Client -> the Python SDK server (../py_server.py, streamable_http_app /mcp)
#   ruby-sse-py     port 19822: the Python SDK client over HTTP+SSE (py_client.py --sse --slow 3) -> fast-mcp /mcp/sse
#   ruby-sse-ts     port 19823: the TypeScript SDK client over HTTP+SSE (natives/ts_sse_client.mjs) -> the same
#   ruby-restart-py port 19824: as ruby-sse-py with --hold 8, the server restarted during the hold (as cpp-restart-ts):
#                   the SSE stream dies with the old process and the last add(40,2) is POSTed to the old
#                   /mcp/messages? URL of the new process
#   ruby-restart-ts port 19825: the same with the TypeScript SDK client over HTTP+SSE (ts_sse_client.mjs, hold 8 s)
#   ruby-two        port 19826: the Python SDK client (--sse --slow 3) and, 1 s later (the Python client takes about a
#                   second to start), the TypeScript SDK client (ts_sse_client.mjs) against one fast-mcp server: its
#                   endpoint event carries no session parameter and it writes every response to every open SSE stream
#
# Each client run is bounded (timeout 60 here; 30-40 s inside the SDK clients; 10-20 s per request). Each server is
# up before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. Nothing
# here phones home; a guard capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py, which imports ../replicas/wire.py by path), ss
# (iproute2), g++ (12), perl 5.36 with Debian's libcryptx-perl, libipc-run-perl and libjson-validator-perl, ruby 3.1
# with Debian's ruby-rack, puma, ruby-addressable, ruby-mime-types, ruby-zeitwerk and ruby-concurrent, python3 (3.11)
# with venv, node 20 + npm. The upstream sources are not committed: place them as natives/SOURCES says
# (natives/cpp-mcp, natives/mojo-mcp, natives/mojo, natives/ruby/*). First use builds natives/build/ (natives/build.sh, about a
# minute), the sdks group's venv sdks/.venv (the Python SDK 2.3.0 client and server; also runs wire.py) and
# proxies2/node_modules (`npm ci`, the TypeScript SDK client). All git-ignored. Results and labels:
# samples/ecosystem/natives.md, samples/ecosystem/labels-natives.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/natives"                                        # servers, clients, pins, sources, build
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=natives
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 PERL5LIB="$W/mojo/lib:$W/mojo-mcp/lib" MOJO_MODE=production

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client and server; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")       # URL [--sse] [--slow N] [--hold S]
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N] [HOLD_S]
TS_SSE_CLIENT=(node "$W/ts_sse_client.mjs")             # URL [SLOW_N] [HOLD_S]
PY_SERVER=("$SDKPY" "$ECO/py_server.py")                # PORT --name NAME [--sse]
CPP_SERVER=("$W/build/cpp_server")                      # PORT
CPP_CLIENT=("$W/build/cpp_sse_client")                  # BASE_URL [--caps]
MOJO_SERVER=(perl "$W/mojo_server.pl")                  # PORT [--plain]
MOJO_CLIENT=(perl "$W/mojo_client.pl")                  # URL
RUBY_LIBS=(fast-mcp dry-schema dry-logic dry-types dry-core dry-configurable dry-initializer dry-inflector)
RUBY_SERVER=(ruby)                                      # -I each natives/ruby/*/lib, then fastmcp_server.rb PORT
for d in "${RUBY_LIBS[@]}"; do RUBY_SERVER+=(-I "$W/ruby/$d/lib"); done
RUBY_SERVER+=("$W/fastmcp_server.rb")

setup() {
    local d
    for d in cpp-mcp/src mojo-mcp/lib mojo/lib "${RUBY_LIBS[@]/#/ruby/}"; do
        [ -d "$W/$d" ] || { echo "missing $W/$d: place the upstream sources as natives/SOURCES says" >&2; exit 1; }
    done
    perl -MCrypt::Misc -MJSON::Validator -e1 2>/dev/null \
        || { echo "missing Perl modules: apt-get install libcryptx-perl libipc-run-perl libjson-validator-perl" >&2; exit 1; }
    ruby -e 'require "rack"; require "puma"; require "addressable"; require "mime/types"; require "zeitwerk"; require "concurrent"' 2>/dev/null \
        || { echo "missing Ruby packages: apt-get install ruby-rack puma ruby-addressable ruby-mime-types ruby-zeitwerk ruby-concurrent" >&2; exit 1; }
    bash "$W/build.sh"                                  # rebuilds what is older than its source
    setup_pysdk
    need_npm "$ECO/proxies2"
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT (listening, no probe), capture of
# PORT, one bounded client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

# restart NAME PORT SERVER-CMD... -- CLIENT-CMD...: as scenario, but the client runs in the background and 4.5 s after
# it starts the server is stopped (SIGINT, then SIGKILL), its port seen free in the socket table, and the same server
# command started again. The client holds its session 8 s after slow_count (done about 1 s after it starts), so its
# last add(40,2) and its DELETE reach the new process.
restart() {
    local name=$1 port=$2 cpid
    shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 4.5
    down
    PIDS=()
    free "$port"
    echo "   server stopped, port free; starting it again"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_cpp-py()     { scenario cpp-py 19810 "${CPP_SERVER[@]}" 19810 -- "${PY_CLIENT[@]}" "$(U 19810 /mcp)" --slow 3; }
scenario_cpp-ts()     { scenario cpp-ts 19811 "${CPP_SERVER[@]}" 19811 -- "${TS_CLIENT[@]}" "$(U 19811 /mcp)" 3; }
scenario_cpp-sse-py() { scenario cpp-sse-py 19812 "${CPP_SERVER[@]}" 19812 -- "${PY_CLIENT[@]}" "$(U 19812 /sse)" --sse --slow 3; }
scenario_cpp-sse-ts() { scenario cpp-sse-ts 19813 "${CPP_SERVER[@]}" 19813 -- "${TS_SSE_CLIENT[@]}" "$(U 19813 /sse)" 3; }
scenario_cpp-restart-ts() {
    restart cpp-restart-ts 19814 "${CPP_SERVER[@]}" 19814 -- "${TS_CLIENT[@]}" "$(U 19814 /mcp)" 3 8
}
scenario_cpp-client() {
    scenario cpp-client 19815 "${PY_SERVER[@]}" 19815 --name mcptap-natives-py-sse --sse -- "${CPP_CLIENT[@]}" "$(U 19815 '')"
}
scenario_cpp-client-caps() {
    scenario cpp-client-caps 19821 "${PY_SERVER[@]}" 19821 --name mcptap-natives-py-sse --sse -- "${CPP_CLIENT[@]}" "$(U 19821 '')" --caps
}
scenario_mojo-py()    { scenario mojo-py 19816 "${MOJO_SERVER[@]}" 19816 -- "${PY_CLIENT[@]}" "$(U 19816 /mcp)" --slow 3; }
scenario_mojo-ts()    { scenario mojo-ts 19817 "${MOJO_SERVER[@]}" 19817 -- "${TS_CLIENT[@]}" "$(U 19817 /mcp)" 3; }
scenario_mojo-restart-py() {
    restart mojo-restart-py 19818 "${MOJO_SERVER[@]}" 19818 -- "${PY_CLIENT[@]}" "$(U 19818 /mcp)" --slow 3 --hold 8
}
scenario_mojo-plain-ts() {
    scenario mojo-plain-ts 19819 "${MOJO_SERVER[@]}" 19819 --plain -- "${TS_CLIENT[@]}" "$(U 19819 /mcp)" 3
}
scenario_mojo-client() {
    scenario mojo-client 19820 "${PY_SERVER[@]}" 19820 --name mcptap-natives-py -- "${MOJO_CLIENT[@]}" "$(U 19820 /mcp)"
}

scenario_ruby-sse-py() { scenario ruby-sse-py 19822 "${RUBY_SERVER[@]}" 19822 -- "${PY_CLIENT[@]}" "$(U 19822 /mcp/sse)" --sse --slow 3; }
scenario_ruby-sse-ts() { scenario ruby-sse-ts 19823 "${RUBY_SERVER[@]}" 19823 -- "${TS_SSE_CLIENT[@]}" "$(U 19823 /mcp/sse)" 3; }
scenario_ruby-restart-py() {
    restart ruby-restart-py 19824 "${RUBY_SERVER[@]}" 19824 -- "${PY_CLIENT[@]}" "$(U 19824 /mcp/sse)" --sse --slow 3 --hold 8
}
scenario_ruby-restart-ts() {
    restart ruby-restart-ts 19825 "${RUBY_SERVER[@]}" 19825 -- "${TS_SSE_CLIENT[@]}" "$(U 19825 /mcp/sse)" 3 8
}
# ruby-two: as scenario, but two bounded clients (timeout 60 each) run at once, the second started 1 s after the first;
# both are waited for.
scenario_ruby-two() {
    local name=ruby-two port=19826 p1 p2
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${RUBY_SERVER[@]}" "$port"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    timeout 60 "${PY_CLIENT[@]}" "$(U $port /mcp/sse)" --sse --slow 3 >"$RUN/$name-py-client.log" 2>&1 &
    p1=$!
    sleep 1
    timeout 60 "${TS_SSE_CLIENT[@]}" "$(U $port /mcp/sse)" 3 >"$RUN/$name-ts-client.log" 2>&1 &
    p2=$!
    wait "$p1" || echo "   ($name-py-client exited with $?)"
    wait "$p2" || echo "   ($name-ts-client exited with $?)"
    for c in py ts; do
        grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-$c-client.log" | cut -c1-150 | tail -12 | sed "s/^/   $name-$c-client: /" || true
    done
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
}

ALL=(cpp-py cpp-ts cpp-sse-py cpp-sse-ts cpp-restart-ts cpp-client cpp-client-caps mojo-py mojo-ts mojo-restart-py mojo-plain-ts mojo-client ruby-sse-py ruby-sse-ts ruby-restart-py ruby-restart-ts ruby-two)

run_scenarios "tcpdump tshark ss node npm perl g++ ruby" -- "$@"

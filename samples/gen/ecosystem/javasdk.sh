#!/usr/bin/env bash
# mcptap ecosystem corpus, group "javasdk": the official Java MCP SDK (modelcontextprotocol/java-sdk 2.0.1, mcp-core +
# mcp-json-jackson2, on reactor-core 3.7.0 and Jackson 2.18.3), built offline with plain javac by javasdk/build.sh from
# sources pinned by commit in javasdk/SOURCES, its servlet transports on embedded Tomcat 10.1.60 (Debian 12's
# libtomcat10-java), its java.net.http client transports. Captured on loopback (127.0.0.1, ports 19610-19629):
#   - javasdk/JavaSdkServer.java: McpServer.sync with tools add, echo, slow_count (progress) over
#     HttpServletStreamableServerTransportProvider (/mcp), HttpServletSseServerTransportProvider (/sse + /mcp/message)
#     or HttpServletStatelessServerTransport (/mcp);
#   - javasdk/JavaSdkClient.java: McpClient.sync over HttpClientStreamableHttpTransport or HttpClientSseClientTransport.
#
#   sudo bash samples/gen/ecosystem/javasdk.sh             # every scenario
#   sudo bash samples/gen/ecosystem/javasdk.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/javasdk-<scenario>.pcap, listing samples/gen/wire/ecosystem/javasdk-<scenario>.pcap.txt):
#   streamable-py   port 19610: the Python SDK client (mcp 2.3.0, ../proxies2/py_client.py --slow 3) -> Java Streamable HTTP server
#   streamable-ts   port 19611: the TypeScript SDK client (1.32.2, ../proxies2/ts_client.mjs, slow_count 3) -> the same
#   sse-py          port 19612: the Python SDK client (../proxies2/py_client.py --sse --slow 3) -> Java HTTP+SSE server
#   stateless-py    port 19613: the Python SDK client (../proxies2/py_client.py --slow 3) -> Java stateless server
#   stateless-ts    port 19614: the TypeScript SDK client (../proxies2/ts_client.mjs, slow_count 3) -> the same
#   client-py       port 19615: the Java client (Streamable HTTP, slow_count 3) -> the Python SDK server (../py_server.py,
#                   streamable_http_app defaults, stateful)
#   client-ts       port 19616: the Java client (Streamable HTTP, slow_count 3) -> the TypeScript SDK server
#                   (../proxies2/ts-server.mjs, express, stateful)
#   client-sse-py   port 19617: the Java client (HTTP+SSE, slow_count 3) -> the Python SDK server (py_server.py --sse)
#   java-java       port 19618: the Java client (Streamable HTTP, slow_count 3) -> the Java Streamable HTTP server
#   restart-py      port 19619: the Python SDK client (../proxies2/py_client.py --slow 3 --hold 8) -> the Java Streamable
#                   HTTP server, which is stopped (SIGKILL) 4 s into the run and started again on the same port: the
#                   client's add(40,2) after the hold reaches a new server process that does not know its session
#   restart-java    port 19620: the Java client (Streamable HTTP, slow_count 3, 8 s hold) -> the Java Streamable HTTP
#                   server, killed and restarted as in restart-py
#
# Each client run is bounded (timeout 60 here; 30-40 s inside the clients; 10-20 s per request). Each server is up
# before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. No network
# beyond 127.0.0.1: nothing here reports usage (DO_NOT_TRACK=1 all the same); a guard capture on every interface
# (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py, which imports ../replicas/wire.py by path), ss
# (iproute2), openjdk-17-jdk-headless, libtomcat10-java, libslf4j-java, libjsr305-java, git, python3 (3.11) with venv,
# node 20 + npm. First use builds javasdk/build (javasdk/build.sh: sources laid out under javasdk/src from
# $JAVASDK_GITDIRS or GitHub), makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 client and server; also
# runs wire.py) and proxies2/node_modules (`npm ci`: the TypeScript SDK client and server). All git-ignored. Results
# and labels: samples/ecosystem/javasdk.md, samples/ecosystem/labels-javasdk.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/javasdk"                                        # server, client, build script, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures, Tomcat's base dir
GROUP=javasdk
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN/tmp"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client and server; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/proxies2/py_client.py")       # URL [--sse] [--slow N] [--hold S]
TS_CLIENT=(node "$ECO/proxies2/ts_client.mjs")          # URL [SLOW_N] [HOLD_S]
PY_SERVER=("$SDKPY" "$ECO/py_server.py")                # PORT --name NAME [--sse]
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT
JAVA=(java -Xmx256m -XX:TieredStopAtLevel=1 "-Djava.io.tmpdir=$RUN/tmp" -cp)
jserver() { echo "${JAVA[@]}" "$(cat "$W/build/classpath")" JavaSdkServer; }   # MODE PORT
jclient() { echo "${JAVA[@]}" "$(cat "$W/build/classpath")" JavaSdkClient; }   # MODE BASE_URL [SLOW_N]

setup() {
    bash "$W/build.sh"
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

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # jserver/jclient expand to a command line without spaces inside its words
scenario_streamable-py() { scenario streamable-py 19610 $(jserver) streamable 19610 -- "${PY_CLIENT[@]}" "$(U 19610 /mcp)" --slow 3; }
# shellcheck disable=SC2046
scenario_streamable-ts() { scenario streamable-ts 19611 $(jserver) streamable 19611 -- "${TS_CLIENT[@]}" "$(U 19611 /mcp)" 3; }
# shellcheck disable=SC2046
scenario_sse-py() { scenario sse-py 19612 $(jserver) sse 19612 -- "${PY_CLIENT[@]}" "$(U 19612 /sse)" --sse --slow 3; }
# shellcheck disable=SC2046
scenario_stateless-py() { scenario stateless-py 19613 $(jserver) stateless 19613 -- "${PY_CLIENT[@]}" "$(U 19613 /mcp)" --slow 3; }
# shellcheck disable=SC2046
scenario_stateless-ts() { scenario stateless-ts 19614 $(jserver) stateless 19614 -- "${TS_CLIENT[@]}" "$(U 19614 /mcp)" 3; }
# shellcheck disable=SC2046
scenario_client-py() { scenario client-py 19615 "${PY_SERVER[@]}" 19615 --name javasdk-py-server -- $(jclient) streamable "$(U 19615 '')" 3; }
# shellcheck disable=SC2046
scenario_client-ts() { scenario client-ts 19616 "${TS_SERVER[@]}" 19616 -- $(jclient) streamable "$(U 19616 '')" 3; }
# shellcheck disable=SC2046
scenario_client-sse-py() { scenario client-sse-py 19617 "${PY_SERVER[@]}" 19617 --sse --name javasdk-py-sse-server -- $(jclient) sse "$(U 19617 '')" 3; }
# shellcheck disable=SC2046
scenario_java-java() { scenario java-java 19618 $(jserver) streamable 19618 -- $(jclient) streamable "$(U 19618 '')" 3; }

# restart NAME PORT CLIENT-CMD...: as scenario, with the client in the background: 4 s into its run (during its 8 s
# hold, after slow_count) the Java server's process group gets SIGKILL, and once the port is free a new server
# process starts on it.
restart() {
    local name=$1 port=$2 cpid; shift 2
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    # shellcheck disable=SC2046
    bg "$name-server" $(jserver) streamable "$port"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@" &
    cpid=$!
    sleep 4
    kill -KILL -- "-${PIDS[0]}" 2>/dev/null || true
    wait "${PIDS[0]}" 2>/dev/null || true
    PIDS=()
    echo "   server killed at 4 s; starting a new one"
    free "$port"
    # shellcheck disable=SC2046
    bg "$name-server" $(jserver) streamable "$port"
    listening "$port"
    wait "$cpid" || true
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}
scenario_restart-py() { restart restart-py 19619 "${PY_CLIENT[@]}" "$(U 19619 /mcp)" --slow 3 --hold 8; }
# shellcheck disable=SC2046
scenario_restart-java() { restart restart-java 19620 $(jclient) streamable "$(U 19620 '')" 3 8; }

ALL=(streamable-py streamable-ts sse-py stateless-py stateless-ts client-py client-ts client-sse-py java-java restart-py restart-java)

run_scenarios "tcpdump tshark ss java javac git node npm" -- "$@"

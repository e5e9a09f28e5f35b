#!/usr/bin/env bash
# mcptap ecosystem corpus, group "longlived": long-lived MCP sessions (3-4 minutes, one tool call every 45-50 s, idle
# in between) of real implementations with their own defaults, where the servers' and proxies' timers meet them:
# session idle expiry, SSE keep-alive comments, the clients' GET reconnect loops, HTTP keep-alive timeouts that close
# pooled connections between calls. Captured on loopback (127.0.0.1, ports 19850-19869):
#   - the official **Python SDK** server (mcp 2.3.0, the sdks group's venv; longlived/py_server.py: MCPServer's
#     Streamable HTTP app under uvicorn) with the one setting a user would make, `session_idle_timeout=30` (default
#     1800 s), so that expiry can fall inside a capture;
#   - the official **TypeScript SDK** server (1.32.2, ../proxies2/ts-server.mjs by path: express, stateful, no event
#     store, no session expiry of its own);
#   - the official **Java SDK** server (2.0.1, the javasdk group's build, ../javasdk/JavaSdkServer.java streamable by
#     path: HttpServletStreamableServerTransportProvider on embedded Tomcat, no keep-alive interval, its default);
#   - **nginx** (Debian 12 package, longlived/nginx.conf.in: buffering off, HTTP/1.1 upstream, default timeouts:
#     proxy_read_timeout 60 s) in front of a server where that is how it is deployed;
#   - clients, each keeping ONE session open and calling add(i,1) every GAP seconds with the same client object, no
#     retry or re-initialize of the driver's own: the Python SDK client (mcp 2.3.0, longlived/py_driver.py), the TS
#     SDK client (1.32.2 of ../proxies2, longlived/ts_driver.mjs), the Java SDK client (2.0.1,
#     longlived/LonglivedJavaClient.java, compiled into longlived/build against ../javasdk/build/classpath; it opens
#     its standalone GET right after initialize, as the other two do). Versions: longlived/SOURCES.
#
#   sudo bash samples/gen/ecosystem/longlived.sh             # every scenario (one after the other: about 28 min)
#   sudo bash samples/gen/ecosystem/longlived.sh SCENARIO..  # some of them (scenarios use distinct ports: separate
#                                                            # runs of this script may go in parallel)
#
# Scenarios (capture samples/ecosystem/longlived-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/longlived-<scenario>.pcap.txt):
#   pysdk-py       port 19850: Python SDK client (gap 45 s, 4 calls) -> Python SDK server, session_idle_timeout 30 s
#   pysdk-java     port 19851: Java SDK client (gap 45 s, 4 calls) -> the same server (idle timeout 30 s)
#   ts-ts          port 19852: TS SDK client (gap 50 s, 4 calls) -> TS SDK server
#   java-nginx-ts  ports 19853 (nginx) -> 19854 (Java SDK server): TS SDK client (gap 50 s, 4 calls)
#   java-ts        port 19857: TS SDK client (gap 50 s, 4 calls) -> Java SDK server, no proxy
#   javaka-nginx-ts ports 19858 (nginx) -> 19859 (Java SDK server with keepAliveInterval 20 s,
#                  longlived/LonglivedJavaServer.java): TS SDK client (gap 50 s, 4 calls)
#   pysdk-reuse-ts port 19860: TS SDK client keeping its session id across a restart (longlived/ts_reuse.mjs: phase 1
#                  initialize, add, close without DELETE; phase 2 a new client with { sessionId }, no initialize, no
#                  GET; add after 20, 20, 45, 20, 20 s idle) -> Python SDK server, session_idle_timeout 30 s
#   java-nginx-py  ports 19861 (nginx) -> 19862 (Java SDK server): Python SDK client (gap 50 s, 4 calls)
#
# Each client run is bounded (30 + CALLS * (GAP + 20) s inside the clients, timeout 300 here; 20 s per request). Each
# server is up before its capture starts (its port seen listening in the socket table, no probe) and stopped after
# it. No network beyond 127.0.0.1: DO_NOT_TRACK=1; a guard capture on every interface (lib.sh guard_start/guard_stop)
# checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py and ../proxies2/wire.py, which import
# ../replicas/wire.py by path), ss (iproute2), python3 (3.11) with venv, node 20 + npm, java 17 + javac, nginx. First
# use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server and client; also runs wire.py),
# proxies2/node_modules (`npm ci`: the TS SDK server and client), the javasdk group's build (../javasdk/build.sh) and
# longlived/build (the Java driver). All git-ignored. Results and labels: samples/ecosystem/longlived.md,
# samples/ecosystem/labels-longlived.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/longlived"                                      # drivers, server, nginx template
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, nginx prefixes, the offline guard's captures
GROUP=longlived
DESCRIBE=()                                             # set per scenario: wire.py needs the port(s)
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, capture_start/stop, guard, run_scenarios, listening, free
mkdir -p "$CAP" "$WIRE" "$RUN/tmp"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0
PY_SERVER=("$SDKPY" "$W/py_server.py")                  # PORT IDLE_TIMEOUT_S
PY_DRIVER=("$SDKPY" "$W/py_driver.py")                  # URL GAP_S CALLS
TS_SERVER=(node "$ECO/proxies2/ts-server.mjs")          # PORT
TS_DRIVER=(node "$W/ts_driver.mjs")                     # URL GAP_S CALLS
JAVA=(java -Xmx256m -XX:TieredStopAtLevel=1 "-Djava.io.tmpdir=$RUN/tmp" -cp)
jcp() { echo "$(cat "$ECO/javasdk/build/classpath"):$W/build"; }
J_SERVER() { echo "${JAVA[@]}" "$(jcp)" JavaSdkServer streamable; }   # PORT
J_DRIVER() { echo "${JAVA[@]}" "$(jcp)" LonglivedJavaClient; }        # BASE_URL GAP_S CALLS
J_KA_SERVER() { echo "${JAVA[@]}" "$(jcp)" LonglivedJavaServer; }     # PORT KEEPALIVE_S
TS_REUSE=(node "$W/ts_reuse.mjs")                       # URL GAPS

setup() {
    bash "$ECO/javasdk/build.sh"
    setup_pysdk
    need_npm "$ECO/proxies2"
    local j
    for j in LonglivedJavaClient LonglivedJavaServer; do
        if [ ! -f "$W/build/$j.class" ] || [ "$W/$j.java" -nt "$W/build/$j.class" ]; then
            mkdir -p "$W/build"
            javac -nowarn -d "$W/build" -cp "$(cat "$ECO/javasdk/build/classpath")" "$W/$j.java"
        fi
    done
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

# start_nginx NAME FRONT BACK: nginx -p RUN/nginx-NAME with longlived/nginx.conf.in filled in.
start_nginx() {
    local prefix="$RUN/nginx-$1"
    mkdir -p "$prefix/tmp"
    sed -e "s/@FRONT@/$2/" -e "s/@BACK@/$3/" "$W/nginx.conf.in" >"$prefix/nginx.conf"
    bg "$1-nginx" nginx -p "$prefix" -c "$prefix/nginx.conf"
}

# longlived NAME FRONT BACK SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on BACK (and nginx on FRONT in
# front of it when FRONT differs), capture of both ports, one bounded client run (timeout 300), capture stop and
# listing, everything down, guard off.
longlived() {
    local name=$1 front=$2 back=$3 rc=0; shift 3
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    if [ "$front" = "$back" ]; then
        DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$back")
    else
        DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$front" "$back")
    fi
    guard_start "$name"
    free "$front" "$back"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$back"
    if [ "$front" != "$back" ]; then start_nginx "$name" "$front" "$back"; listening "$front"; fi
    sleep 2
    capture_start "$name" "$front" "$back"
    timeout 300 "$@" >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-160 | tail -25 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-160 | tail -8 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_pysdk-py() {
    longlived pysdk-py 19850 19850 "${PY_SERVER[@]}" 19850 30 -- "${PY_DRIVER[@]}" "$(U 19850 /mcp)" 45 4
}
scenario_pysdk-java() {
    longlived pysdk-java 19851 19851 "${PY_SERVER[@]}" 19851 30 -- $(J_DRIVER) "$(U 19851 '')" 45 4
}
scenario_ts-ts() {
    longlived ts-ts 19852 19852 "${TS_SERVER[@]}" 19852 -- "${TS_DRIVER[@]}" "$(U 19852 /mcp)" 50 4
}
scenario_java-nginx-ts() {
    longlived java-nginx-ts 19853 19854 $(J_SERVER) 19854 -- "${TS_DRIVER[@]}" "$(U 19853 /mcp)" 50 4
}
scenario_java-ts() {
    longlived java-ts 19857 19857 $(J_SERVER) 19857 -- "${TS_DRIVER[@]}" "$(U 19857 /mcp)" 50 4
}

scenario_javaka-nginx-ts() {
    longlived javaka-nginx-ts 19858 19859 $(J_KA_SERVER) 19859 20 -- "${TS_DRIVER[@]}" "$(U 19858 /mcp)" 50 4
}
scenario_pysdk-reuse-ts() {
    longlived pysdk-reuse-ts 19860 19860 "${PY_SERVER[@]}" 19860 30 -- "${TS_REUSE[@]}" "$(U 19860 /mcp)" 20,20,45,20,20
}
scenario_java-nginx-py() {
    longlived java-nginx-py 19861 19862 $(J_SERVER) 19862 -- "${PY_DRIVER[@]}" "$(U 19861 /mcp)" 50 4
}

ALL=(pysdk-py pysdk-java ts-ts java-nginx-ts java-ts javaka-nginx-ts pysdk-reuse-ts java-nginx-py)

run_scenarios "tcpdump tshark ss node npm java javac nginx" -- "$@"

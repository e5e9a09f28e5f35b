#!/usr/bin/env bash
# mcptap ecosystem corpus, group "replicas": real MCP traffic of stateful MCP servers scaled out behind a load balancer
# or over several worker processes, the deployment mistake users report as "Session not found" after scaling out:
# each replica keeps its sessions in its own memory (the official SDKs' default), so a request that lands on another
# replica than the one whose initialize minted the session id is refused. Debian 12's nginx and HAProxy, configured
# as their documentation / the usual MCP snippet says (nothing tuned for the analyzer), plain HTTP/1.1 everywhere,
# captured on loopback (127.0.0.1, ports 18815-18824 and 18837-18848 only), both hops in one capture where a balancer
# is used (client <-> balancer, balancer <-> each replica).
#
#   sudo bash samples/gen/ecosystem/replicas.sh             # every scenario
#   sudo bash samples/gen/ecosystem/replicas.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/replicas-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   nginx-rr-py      nginx (replicas/nginx/nginx-rr-py.conf: `upstream` of two servers, round-robin, the default) on
#                    18815 -> two Python SDK replicas 18816, 18817; Python SDK client
#   nginx-rr-ts      the same (nginx-rr-ts.conf) on 18818 -> two TS SDK replicas 18819, 18820; TS SDK client
#   haproxy-rr-py    HAProxy (replicas/haproxy.cfg: `balance roundrobin`, Debian's default timeouts) on 18821 -> two
#                    Python SDK replicas 18822, 18823; TS SDK client
#   nginx-sticky-py  nginx (nginx-sticky-py.conf: `hash $http_mcp_session_id consistent;`, the usual fix) on 18824 ->
#                    two Python SDK replicas 18837, 18838; Python SDK client. The initialize carries no session id, so
#                    nginx balances it round-robin, whatever id its replica then mints: the session sticks to the
#                    replica that holds it only if that id hashes there, 1 run in 2 (see `sticky` below). This
#                    capture is the first run of up to 8 where it stuck (the control)
#   nginx-sticky-miss-py  the same, the first run of up to 8 where it did not stick
#   uvicorn-workers  the Python SDK app under `uvicorn --workers 2` on 18839 (no proxy: the two worker processes
#                    accept from one listening socket); Python SDK client
#   replica-restart  nginx (replica-restart.conf: sticky as nginx-sticky-py) on 18840 -> two TS SDK replicas 18841,
#                    18842; TS SDK client (the first run of up to 8 where the session stuck); after its 2nd call (echo) the client writes run/replica-restart.ready (the
#                    name of the server that answered its initialize, which carries that replica's port) and waits;
#                    this script stops that replica (SIGTERM), starts it again, waits until it listens, and 4 s later
#                    (time for the SDK's own GET stream reconnects: 1 s, then 1.5 s, at most 2 retries) lets the
#                    client go on (run/replica-restart.go); the client's next calls and its GET stream reconnects are
#                    whatever the SDK does
#
# Servers: the Python SDK (mcp 2.3.0) app of the other groups (pysdk_tools.py `streamable_app`: stateful, SSE
# replies, no event store, sessions in the process's memory) under uvicorn (replicas/replicas_py.py server), and the
# TS SDK 1.32.2 server on express with the SDK README's stateful pattern (replicas/ts-server.mjs on ts_common.mjs
# `routeSessions`: randomUUID session ids, an in-memory map of transports). Each replica's server name carries its
# port, so the initialize result on the wire says which replica minted the session.
# Clients: the Python SDK client (replicas_py.py client: mode="legacy") and the TS SDK client (replicas/client.mjs):
# initialize, tools/list, add(1,2), echo("hello"), slow_count(3) with a progress token, add(40,2), close. Neither
# retries nor re-initializes beyond what its SDK does by itself: when the SDK raises, the run logs it and ends.
#
# Needs root (tcpdump), tcpdump, tshark (replicas/wire.py), python3 with venv, node 20 + npm, and the Debian packages
# nginx and haproxy (`apt-get install -y nginx haproxy`). The balancers run as non-daemon processes of our own with
# their config under replicas/ and pid/log/temp paths under replicas/run/; the system services and /etc are left
# alone (stop them first if the packages' postinst started one on a port used here: they are not part of any
# capture). First use makes replicas/.venv (replicas/requirements.txt) and replicas/node_modules (`npm ci`). All
# git-ignored (replicas/.gitignore). Results and labels: samples/ecosystem/replicas.md,
# samples/ecosystem/labels-replicas.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/replicas"                                       # harness code, configs, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, nginx prefixes, pid files, marker files
VPY="$W/.venv/bin/python"
GROUP=replicas
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

# replica KIND(py|ts) NAME PORT: one server replica on PORT, up before the capture starts; its pid in LAST_PID.
replica() {
    if [ "$1" = py ]; then
        server "$2" "$3" "$VPY" "$W/replicas_py.py" server --port "$3"
    else
        server "$2" "$3" node "$W/ts-server.mjs" "$3"
    fi
}

# balancer NAME(nginx config name | haproxy) FRONT: the load balancer of a scenario, listening on FRONT. nginx gets a
# private prefix run/nginx-NAME (pid, logs, temp dirs; world-writable: its workers run as nobody).
balancer() {
    if [ "$1" = haproxy ]; then
        cd "$W"
        server haproxy "$2" haproxy -f haproxy.cfg -db
        cd - >/dev/null
    else
        local prefix="$RUN/nginx-$1"
        rm -rf "$prefix"; mkdir -p "$prefix/tmp"; chmod -R 777 "$prefix"
        server "nginx-$1" "$2" nginx -p "$prefix" -c "$W/nginx/$1.conf" -e stderr
    fi
}

# client KIND(py|ts) NAME URL [ARGS...]: one bounded client run (timeout 60), output in run/NAME-client.log.
client() {
    local kind=$1 name=$2; shift 2
    if [ "$kind" = py ]; then
        run "$name-client" "$VPY" "$W/replicas_py.py" client --url "$@"
    else
        run "$name-client" node "$W/client.mjs" "$@"
    fi
}

# upstreams NAME: what nginx's access log says about each request (which replica took it), shown indented.
upstreams() {
    local log="$RUN/nginx-$1/access.log"
    [ -f "$log" ] && sed "s/^/   nginx: /" "$log" || true
}

# balanced NAME BALANCER SERVER-KIND CLIENT-KIND FRONT A B: two replicas (A, B) behind BALANCER on FRONT, capture of
# the three ports, one client run through the balancer, stop, everything down.
balanced() {
    local name=$1 lb=$2 kind=$3 ckind=$4 front=$5 a=$6 b=$7
    free "$front" "$a" "$b"
    replica "$kind" "$name-replica-a" "$a"
    replica "$kind" "$name-replica-b" "$b"
    balancer "$lb" "$front"
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$a" "$b")
    capture_start "$name" "$front" "$a" "$b"
    client "$ckind" "$name" "http://$HOST:$front/mcp"
    capture_stop "$name"
    [ "$lb" = haproxy ] || upstreams "$lb"
    cleanup
}

# sticky NAME WANT(stuck|missed) CMD...: `hash $http_mcp_session_id consistent` places the initialize (no session id
# yet: an empty key, which nginx balances round-robin) independently of the id its replica then mints, and every later
# request by that id's hash: whether a session sticks to the replica that holds it is a coin flip per run (two
# replicas). Run the whole scenario CMD (replicas, nginx, capture, client, everything down) up to 8 times, until the
# client got past its 2nd call (echo: "stuck") or did not ("missed"), and say how each attempt went. The capture
# kept is that of the last attempt; the outcome was chosen, the traffic in it was not shaped.
sticky() {
    local name=$1 want=$2 i got; shift 2
    for i in $(seq 1 8); do
        "$@"
        if grep -q "echo .*->" "$RUN/$name-client.log"; then got=stuck; else got=missed; fi
        echo "   attempt $i: the session $got"
        [ "$got" = "$want" ] && return 0
    done
    echo "   no attempt in 8 with the session $want" >&2
    return 1
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_nginx-rr-py() { balanced nginx-rr-py nginx-rr-py py py 18815 18816 18817; }

scenario_nginx-rr-ts() { balanced nginx-rr-ts nginx-rr-ts ts ts 18818 18819 18820; }

scenario_haproxy-rr-py() { balanced haproxy-rr-py haproxy py ts 18821 18822 18823; }

scenario_nginx-sticky-py() { sticky nginx-sticky-py stuck balanced nginx-sticky-py nginx-sticky-py py py 18824 18837 18838; }

scenario_nginx-sticky-miss-py() {
    sticky nginx-sticky-miss-py missed balanced nginx-sticky-miss-py nginx-sticky-py py py 18824 18837 18838
}

scenario_uvicorn-workers() {
    local port=18839
    free "$port"
    server uvicorn-workers-server "$port" "$VPY" "$W/replicas_py.py" server --port "$port" --workers 2
    sleep 3                                             # both worker processes up and accepting
    DESCRIBE=("$VPY" "$W/wire.py" - "$port")
    capture_start uvicorn-workers "$port"
    client py uvicorn-workers "http://$HOST:$port/mcp"
    capture_stop uvicorn-workers
    cleanup
}

scenario_replica-restart() { sticky replica-restart stuck replica_restart; }

replica_restart() {
    local name=replica-restart front=18840 a=18841 b=18842 pa pb holder i cpid rc=0
    local ready="$RUN/$name.ready" go="$RUN/$name.go"
    rm -f "$ready" "$go"
    free "$front" "$a" "$b"
    replica ts "$name-replica-a" "$a"; pa=$LAST_PID
    replica ts "$name-replica-b" "$b"; pb=$LAST_PID
    balancer "$name" "$front"
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$a" "$b")
    capture_start "$name" "$front" "$a" "$b"
    timeout 60 node "$W/client.mjs" "http://$HOST:$front/mcp" "$ready" "$go" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do [ -s "$ready" ] || ! kill -0 "$cpid" 2>/dev/null && break; sleep 0.1; done
    holder="$(cat "$ready" 2>/dev/null || true)"        # replicas-ts-server-PORT: the replica that minted the session
    case "$holder" in
        *-"$a") echo "   session held by replica A ($a): restarting it"; stop "$pa"; replica ts "$name-replica-a2" "$a" ;;
        *-"$b") echo "   session held by replica B ($b): restarting it"; stop "$pb"; replica ts "$name-replica-b2" "$b" ;;
        *) echo "   the client did not reach its 2nd call (no session holder known): no restart" ;;
    esac
    [ -n "$holder" ] && sleep 4                         # the client idles: time for the SDK's own GET reconnects
    touch "$go"
    wait "$cpid" || rc=$?
    grep -vE '^\s+at |^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -30 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    upstreams "$name"
    cleanup
}

ALL=(nginx-rr-py nginx-rr-ts haproxy-rr-py nginx-sticky-py nginx-sticky-miss-py uvicorn-workers replica-restart)

run_scenarios "tcpdump tshark node npm nginx haproxy" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways9": gateways that carry a client's Streamable HTTP session to an upstream MCP
# server over HTTP, when the upstream is lost mid-session (restarted on the same port, killed for good, killed while a
# tool call is in flight). Every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <->
# upstream, on loopback only (127.0.0.1, ports 20210-20229), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways9.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways9.sh SCENARIO..  # some of them
#
# Gateways (each only captured on its happy path, stdio behind it, by an earlier group; here HTTP -> HTTP, built the
# way their READMEs chain them):
#   sg-*   **supergateway 4.0.0** (npm) twice: the front `supergateway --stdio "supergateway --streamableHttp UP"
#          --outputTransport streamableHttp --stateful` (stdio -> stateful Streamable HTTP, one child per front
#          session) whose child is supergateway's own Streamable HTTP client bridge (--streamableHttp URL -> stdio).
#   mpx-*  **mcp-proxy 0.13.0** (PyPI, sparfenyuk; mcp 1.30.0) twice: the front `mcp-proxy --port F -- mcp-proxy
#          --transport streamablehttp UP` (its server mode, stdio child shared by every front session) whose child is
#          its own client mode (Streamable HTTP -> stdio).
#   rm-*   supergateway 4.0.0 stateful in front, **mcp-remote 0.15.1** (npm) as its stdio child (`mcp-remote UP
#          --transport http-only`).
#
# Upstream: the Python SDK 2.3.0 server (../py_server.py, streamable_http_app defaults, the sdks group's venv).
# Clients (by path): ../gateways7/gw7_client.py (Python SDK 2.3.0: tools/list, add, echo, slow_count(3), add(40,2),
# DELETE; --pause-at 2: after tools/list and add(1,2) it waits for the script) and ../gateways5/crash_client.py (Python
# SDK 2.3.0: tools/list, add(1,2), slow_count(40) (about 4 s), 2 s idle, add(2,3), add(5,5), DELETE).
#
# Scenarios (capture samples/ecosystem/gateways9-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   X-restart  the client pauses after add(1,2); the upstream is stopped (SIGTERM) and a new one started on the same
#              port; the client goes on with its session.
#   X-down     the same, the upstream is not started again.
#   X-crash    crash_client.py; the upstream is SIGKILLed 1.5 s into slow_count(40) and a new one started at once.
#   ports: sg-restart 20210/20211, sg-down 20212/20213, sg-crash 20214/20215, mpx-restart 20216/20217, mpx-down
#   20218/20219, mpx-crash 20220/20221, rm-restart 20222/20223, rm-crash 20224/20225, rm-down 20226/20227.
#
# The upstream is up before the capture starts (watched for in the socket table, no probe); the gateway is started
# inside the capture and watched for with `ss`; it is stopped (SIGINT, SIGKILL after 5 s) before the capture ends.
# Each client run is bounded (timeout 60; 45-50 s inside the client).
#
# Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; cwd and HOME of the gateway are gateways9/run/<scenario>. A guard
# capture on every interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py), ss, node >= 20 with npm, python3 (3.11).
# First use makes gateways9/node_modules (package-lock.json), gateways9/.venv-proxy (requirements-proxy.txt, the
# gateways group's pin), sdks/.venv, all git-ignored. Results and labels: samples/ecosystem/gateways9.md,
# samples/ecosystem/labels-gateways9.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways9"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways9
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"
SG="$W/node_modules/.bin/supergateway"
MR="$W/node_modules/.bin/mcp-remote"
MPX="$W/.venv-proxy/bin/mcp-proxy"

setup() {
    setup_pysdk
    need_npm "$W"
    need_venv "$W/.venv-proxy" "$W/requirements-proxy.txt" mcp-proxy
}

# halt PID: SIGINT to the process group started by bg, SIGKILL if it is still there after 5 s, reaped.
halt() {
    local i
    kill -INT -- "-$1" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# up PORT LOGNAME: the Python SDK server (streamable_http_app defaults) in the background; its pid in UP_PID.
UP_PID=""
up() { bg "$2" "$SDKPY" "$ECO/py_server.py" "$1" --name "gateways9-py-server-{port}"; UP_PID=$LAST_PID; }

# gateway KIND NAME FRONT UP: start the gateway chain KIND (sg, mpx, rm) on FRONT for upstream port UP, cwd and HOME
# RUN/NAME; its pid in GW_PID.
GW_PID=""
gateway() {
    local kind=$1 name=$2 front=$3 url="http://$HOST:$4/mcp" dir="$RUN/$2"
    mkdir -p "$dir"
    case $kind in
        sg)  bg "$name-gateway" env -C "$dir" HOME="$dir" "$SG" --stdio "$SG --streamableHttp $url --logLevel info" \
                 --outputTransport streamableHttp --stateful --port "$front" --logLevel info ;;
        rm)  bg "$name-gateway" env -C "$dir" HOME="$dir" "$SG" --stdio "$MR $url --transport http-only" \
                 --outputTransport streamableHttp --stateful --port "$front" --logLevel info ;;
        mpx) bg "$name-gateway" env -C "$dir" HOME="$dir" "$MPX" --pass-environment --host "$HOST" --port "$front" -- \
                 "$MPX" --transport streamablehttp "$url" ;;
    esac
    GW_PID=$LAST_PID
}

# listening_any PORT: as lib.sh's listening, but for a listener on any address (supergateway binds every address, it
# has no host option; the clients still only connect to 127.0.0.1). The socket table, no probe.
listening_any() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ss -Hltn "sport = :$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

# gw_scenario KIND NAME FRONT UP MODE -- CLIENT...: guard on, the upstream up, capture of both ports, the gateway
# started inside it, the client run, the gateway stopped, capture stop and listing, everything down, guard off.
# MODE: restart / down (the client pauses (ready/go files); the upstream is stopped (SIGTERM) and, for restart, a new
# one started on its port); crash (when the client's ready file appears, 1.5 s later the upstream is SIGKILLed and a
# new one started at once).
gw_scenario() {
    local kind=$1 name=$2 front=$3 port=$4 mode=$5 c
    shift 5; [ "$1" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    free "$front" "$port"
    up "$port" "$name-up"; local up_pid=$UP_PID; listening "$port"
    sleep 1
    capture_start "$name" "$front" "$port"
    gateway "$kind" "$name" "$front" "$port"
    listening_any "$front"
    sleep 1
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 & c=$!
    for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
    case $mode in
        restart|down)
            echo "   stopping (SIGTERM) the upstream on $port"
            stop "$up_pid"
            free "$port"
            if [ "$mode" = restart ]; then
                echo "   starting a new upstream on $port"
                up "$port" "$name-up2"; listening "$port"
            fi
            sleep 1
            touch "$RUN/$name/go"
            ;;
        crash)
            sleep 1.5
            echo "   killing (SIGKILL) the upstream on $port during slow_count"
            stop "$up_pid" KILL
            free "$port"
            up "$port" "$name-up2"; listening "$port"
            ;;
    esac
    wait $c || echo "   (client exited with $?)"
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    halt "$GW_PID"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -avE '^\s*$' "$RUN/$name-gateway.log" 2>/dev/null | cut -c1-150 | tail -6 | sed "s/^/   gateway: /" || true
}

u() { echo "http://$HOST:$1/mcp"; }
GW7=("$SDKPY" "$ECO/gateways7/gw7_client.py")
CRASH=("$SDKPY" "$ECO/gateways5/crash_client.py")
paused() { local r="$RUN/$1"; echo --pause-at 2 --ready "$r/A.ready" --go "$r/go"; }

# shellcheck disable=SC2046
scenario_sg-restart()  { gw_scenario sg sg-restart 20210 20211 restart -- "${GW7[@]}" "$(u 20210)" $(paused sg-restart); }
# shellcheck disable=SC2046
scenario_sg-down()     { gw_scenario sg sg-down 20212 20213 down -- "${GW7[@]}" "$(u 20212)" $(paused sg-down); }
scenario_sg-crash()    { gw_scenario sg sg-crash 20214 20215 crash -- "${CRASH[@]}" "$(u 20214)" --ready-file "$RUN/sg-crash/A.ready"; }
# shellcheck disable=SC2046
scenario_mpx-restart() { gw_scenario mpx mpx-restart 20216 20217 restart -- "${GW7[@]}" "$(u 20216)/" $(paused mpx-restart); }
# shellcheck disable=SC2046
scenario_mpx-down()    { gw_scenario mpx mpx-down 20218 20219 down -- "${GW7[@]}" "$(u 20218)/" $(paused mpx-down); }
scenario_mpx-crash()   { gw_scenario mpx mpx-crash 20220 20221 crash -- "${CRASH[@]}" "$(u 20220)/" --ready-file "$RUN/mpx-crash/A.ready"; }
# shellcheck disable=SC2046
scenario_rm-restart()  { gw_scenario rm rm-restart 20222 20223 restart -- "${GW7[@]}" "$(u 20222)" $(paused rm-restart); }
# shellcheck disable=SC2046
scenario_rm-down()     { gw_scenario rm rm-down 20226 20227 down -- "${GW7[@]}" "$(u 20226)" $(paused rm-down); }
scenario_rm-crash()    { gw_scenario rm rm-crash 20224 20225 crash -- "${CRASH[@]}" "$(u 20224)" --ready-file "$RUN/rm-crash/A.ready"; }

ALL=(sg-restart sg-down sg-crash mpx-restart mpx-down mpx-crash rm-restart rm-down rm-crash)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

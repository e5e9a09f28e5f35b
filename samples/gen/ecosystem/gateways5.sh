#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways5": real MCP traffic through two MCP gateways from PyPI not yet in the corpus,
# every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <-> upstream MCP server, on loopback
# only (127.0.0.1, ports 19690-19709), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways5.sh SCENARIO..  # some of them
#
# The first gateway: **MCPM** 2.15.0 (PyPI `mcpm`, pathintegral-institute's MCP manager; FastMCP 2.13.0 underneath):
# `mcpm run NAME --http|--sse --host 127.0.0.1 --port P` serves one installed server through
# `FastMCP.as_proxy(MCPConfig(...))` plus MCPM's tracking middleware (mcpm/fastmcp_integration/proxy.py). The
# "installed" server is a remote one (`{"name": ..., "url": ...}` in ~/.config/mcpm/servers.json, HOME in gateways5/run):
# an upstream URL ending in /sse makes FastMCP use its SSE client, any other URL its Streamable HTTP client. With one
# server the tool names are not prefixed.
# The second: **fastmcp-gateway** 0.35.0 (PyPI; FastMCP 4.2.3 on the Python SDK mcp 2.3.0), `python -m fastmcp_gateway`
# configured by environment (GATEWAY_UPSTREAMS={"py": URL}, GATEWAY_HOST, GATEWAY_PORT): its front offers meta tools
# (discover_tools, get_tool_schema, execute_tool, refresh_registry) over Streamable HTTP; it fills its registry from
# the upstream at startup and opens an upstream session per execute_tool.
#
# Scenarios (capture samples/ecosystem/gateways5-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mcpm-py       front 19690 (`mcpm run --http`, /mcp), upstream the Python SDK server (../py_server.py, 19691,
#                 Streamable HTTP). Client: ../gateways3/gw3_client.py (the Python SDK 2.3.0 client, Streamable HTTP):
#                 initialize, tools/list, add(1,2), echo, slow_count(3) with a progressToken, add(40,2); then the
#                 script restarts the upstream (SIGTERM, same port, a new process) and the client calls add(2,3),
#                 echo("after restart A"), add(5,5) in the same front session, then closes (DELETE).
#   mcpm-ts       front 19693 (`mcpm run --http`), upstream the TS SDK 1.32.2 server (../proxies/ts-server.mjs, 19694).
#                 Client: ../proxies2/ts_client.mjs (the TS SDK 1.32.2 client) with slow_count(3).
#   mcpm-sse      front 19696 (`mcpm run --sse`, GET /sse + POST /messages/), upstream the Python SDK server's legacy
#                 HTTP+SSE app (../py_server.py --sse, 19697, GET /sse). Client: ../proxies2/py_client.py --sse --slow 3
#                 (the Python SDK client over the legacy transport): HTTP+SSE on both hops.
#   fgw-py        fastmcp-gateway front 19700 (/mcp), upstream domain "py" = the Python SDK server (../py_server.py,
#                 19701). Client: gateways5/fgw_client.py (the Python SDK 2.3.0 client): initialize, tools/list,
#                 discover_tools(), discover_tools(py), get_tool_schema(add), execute_tool add/echo/slow_count(3)/add;
#                 the upstream is restarted; execute_tool add(2,3), echo, and an unknown tool; DELETE.
#   fgw-ts        fastmcp-gateway front 19703, upstream the TS SDK server (../proxies/ts-server.mjs, 19704); the same
#                 client without the restart.
#   mcpm-crash    MCPM --http front 19706, upstream the Python SDK server (19707). Client: gateways5/crash_client.py
#                 (Python SDK): initialize, tools/list, add(1,2), slow_count(40) during which the upstream is killed
#                 (SIGKILL) and a new one started, then add(2,3), add(5,5) in the same front session, DELETE.
#   fgw-crash     the same through fastmcp-gateway (front 19708, upstream 19709), the calls as execute_tool.
#
# The upstream is up before the capture starts (its port seen in the socket table, no probe); the gateway is started
# inside the capture (MCPM's FastMCP proxy connects to its upstream only when a front request needs it; fastmcp-gateway
# fills its registry from the upstream at startup) and watched for with `ss`; the restarted upstream's port is watched
# going down and up with `ss` too. MCPM's `find_available_port` binds the port once (no connection). The gateway is
# stopped (SIGINT) before the capture ends. Each client run is bounded (timeout 60; 40-45 s inside the clients).
#
# Offline: DO_NOT_TRACK=1, FASTMCP_CHECK_FOR_UPDATES=off; MCPM's usage tracking is a local SQLite file under HOME (no
# network); nothing of `mcpm search/install` (the registry fetch) is run. A guard capture on every interface (lib.sh
# guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py -> ../agentsjs/wire.py), ss, node >= 20 with
# npm, python3 (3.11). First use makes gateways5/.venv-mcpm (requirements-mcpm.txt), gateways5/.venv-fgw
# (requirements-fgw.txt), sdks/.venv, proxies/node_modules and proxies2/node_modules, all git-ignored. Results and
# labels: samples/ecosystem/gateways5.md, samples/ecosystem/labels-gateways5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 FASTMCP_CHECK_FOR_UPDATES=off OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"

setup() {
    setup_pysdk
    need_venv "$W/.venv-mcpm" "$W/requirements-mcpm.txt" mcpm
    need_venv "$W/.venv-fgw" "$W/requirements-fgw.txt" fastmcp-gateway
    need_npm "$ECO/proxies"
    need_npm "$ECO/proxies2"
}

# up KIND PORT NAME: an upstream server in the background (py: the Python SDK server, Streamable HTTP; pysse: its
# legacy HTTP+SSE app; ts: the TS SDK server); its pid in UP_PID.
UP_PID=""
up() {
    case $1 in
        py)    bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways5-py-server-{port}" ;;
        pysse) bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --sse --name "gateways5-py-sse-server-{port}" ;;
        ts)    bg "$3" env -C "$ECO/proxies" node ts-server.mjs "$2" ;;
    esac
    UP_PID=$LAST_PID
}

# gw_scenario NAME FRONT KIND UPPORT RESTART(yes|no|crash) GATEWAY-CMD... -- CLIENT... : guard on, the upstream KIND up on
# UPPORT, capture of FRONT and UPPORT, the gateway started (in RUN/NAME, HOME there) and watched for with ss, one bounded
# client run (with RESTART=yes the upstream is restarted (SIGTERM) when the client says so, between calls; with
# RESTART=crash it is killed (SIGKILL) 1.5 s into the client's slow call and a new one started), the gateway stopped (SIGINT),
# capture stop and listing, everything down, guard off.
gw_scenario() {
    local name=$1 front=$2 kind=$3 uport=$4 restart=$5 dir="$RUN/$1" gw_pid c gw=()
    shift 5
    while [ "$1" != "--" ]; do gw+=("$1"); shift; done; shift
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "$uport")
    guard_start "$name"
    free "$front" "$uport"
    up "$kind" "$uport" "$name-$kind"; listening "$uport"; sleep 1
    capture_start "$name" "$front" "$uport"
    bg "$name-gateway" env -C "$dir" HOME="$dir" "${gw[@]}"
    gw_pid=$LAST_PID
    listening "$front"
    sleep 1
    rm -f "$RUN/$name-A.restart.ready" "$RUN/$name.restart-go"
    if [ "$restart" = crash ]; then
        timeout 60 "$@" --ready-file "$RUN/$name-A.restart.ready" >"$RUN/$name-client.log" 2>&1 &
        c=$!
        for _ in $(seq 1 300); do [ -e "$RUN/$name-A.restart.ready" ] && break; sleep 0.1; done
        sleep 1.5
        echo "   killing (SIGKILL) the $kind upstream on $uport during the slow call, then starting a new one"
        stop "$UP_PID" KILL
        free "$uport"
        up "$kind" "$uport" "$name-${kind}2"; listening "$uport"
        wait $c || echo "   (client failed: see $RUN/$name-client.log)"
    elif [ "$restart" = yes ]; then
        timeout 60 "$@" --restart-ready-file "$RUN/$name-A.restart.ready" --restart-go-file "$RUN/$name.restart-go" \
            >"$RUN/$name-client.log" 2>&1 &
        c=$!
        for _ in $(seq 1 300); do [ -e "$RUN/$name-A.restart.ready" ] && break; sleep 0.1; done
        echo "   restarting the $kind upstream on $uport"
        stop "$UP_PID"
        free "$uport"
        up "$kind" "$uport" "$name-${kind}2"; listening "$uport"
        sleep 1
        touch "$RUN/$name.restart-go"
        wait $c || echo "   (client failed: see $RUN/$name-client.log)"
    else
        timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
    fi
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    stop "$gw_pid" INT
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -avE '^\s*$' "$RUN/$name-gateway.log" | cut -c1-150 | tail -4 | sed "s/^/   gateway: /" || true
}

# mcpm_scenario NAME FRONT MODE(--http|--sse) KIND UPPORT UPPATH RESTART -- CLIENT...: the upstream "installed" in
# MCPM as the remote server "up" (RUN/NAME/.config/mcpm/servers.json), `mcpm run up MODE` as the gateway.
mcpm_scenario() {
    local name=$1 front=$2 mode=$3 kind=$4 uport=$5 upath=$6 restart=$7 dir="$RUN/$1"
    shift 8
    rm -rf "$dir"; mkdir -p "$dir/.config/mcpm"
    printf '{"up": {"name": "up", "url": "http://%s:%s%s"}}\n' "$HOST" "$uport" "$upath" >"$dir/.config/mcpm/servers.json"
    gw_scenario "$name" "$front" "$kind" "$uport" "$restart" \
        "$W/.venv-mcpm/bin/mcpm" run up "$mode" --host "$HOST" --port "$front" -- "$@"
}

# fgw_scenario NAME FRONT KIND UPPORT RESTART -- CLIENT...: fastmcp-gateway (`python -m fastmcp_gateway`) on FRONT with
# the one upstream domain "py" (GATEWAY_UPSTREAMS) at http://HOST:UPPORT/mcp.
fgw_scenario() {
    local name=$1 front=$2 kind=$3 uport=$4 restart=$5 dir="$RUN/$1"
    shift 6
    rm -rf "$dir"; mkdir -p "$dir"
    gw_scenario "$name" "$front" "$kind" "$uport" "$restart" \
        env GATEWAY_UPSTREAMS="{\"py\": \"http://$HOST:$uport/mcp\"}" GATEWAY_HOST="$HOST" GATEWAY_PORT="$front" \
        GATEWAY_NAME=gateways5-fastmcp-gateway "$W/.venv-fgw/bin/python" -m fastmcp_gateway -- "$@"
}

scenario_mcpm-py() {
    mcpm_scenario mcpm-py 19690 --http py 19691 /mcp yes -- \
        "$SDKPY" "$ECO/gateways3/gw3_client.py" --tag A "http://$HOST:19690/mcp"
}
scenario_mcpm-ts() {
    mcpm_scenario mcpm-ts 19693 --http ts 19694 /mcp no -- \
        node "$ECO/proxies2/ts_client.mjs" "http://$HOST:19693/mcp" 3
}
scenario_mcpm-sse() {
    mcpm_scenario mcpm-sse 19696 --sse pysse 19697 /sse no -- \
        "$SDKPY" "$ECO/proxies2/py_client.py" "http://$HOST:19696/sse" --sse --slow 3
}
scenario_fgw-py() {
    fgw_scenario fgw-py 19700 py 19701 yes -- "$SDKPY" "$W/fgw_client.py" "http://$HOST:19700/mcp"
}
scenario_fgw-ts() {
    fgw_scenario fgw-ts 19703 ts 19704 no -- "$SDKPY" "$W/fgw_client.py" "http://$HOST:19703/mcp"
}

scenario_mcpm-crash() {
    mcpm_scenario mcpm-crash 19706 --http py 19707 /mcp crash -- \
        "$SDKPY" "$W/crash_client.py" "http://$HOST:19706/mcp"
}
scenario_fgw-crash() {
    fgw_scenario fgw-crash 19708 py 19709 crash -- "$SDKPY" "$W/crash_client.py" --fgw "http://$HOST:19708/mcp"
}

ALL=(mcpm-py mcpm-ts mcpm-sse fgw-py fgw-ts mcpm-crash fgw-crash)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

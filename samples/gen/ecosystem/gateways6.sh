#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways6": real MCP traffic through three MCP proxies/gateways not yet in the corpus
# (two from PyPI, one from npm), every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <-> upstream MCP server, on
# loopback only (127.0.0.1, ports 19770-19789), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways6.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways6.sh SCENARIO..  # some of them
#
# The first gateway: **agentwit** 1.2.1 (PyPI; "transparent proxy witness", FastAPI + uvicorn + httpx 0.29), its
# documented HTTP mode `agentwit proxy --target http://HOST:UPPORT --port FRONT`: one catch-all route forwards every
# request (method, path, query, every header but Host, plus its own `X-Agentwit-Proxy: 1`) to the target through ONE
# shared httpx.AsyncClient (pooled keep-alive upstream connections), streams text/event-stream replies chunk by chunk,
# buffers every other reply, adds `X-Agentwit-Witness-Id`, retries a connection error 3 times (1 s, 2 s apart) and
# then answers 502 `{"error": "upstream request failed", ...}` (plain JSON, no JSON-RPC). It writes a witness log in
# its working directory (HOME and the cwd are gateways6/run/<scenario>).
# The second: **bastiongateway** 0.14.0 (PyPI; `bastiongate`, an MCP security gate), its documented HTTP mode
# `bastiongate run-http --upstream http://HOST:UPPORT/mcp --port FRONT` (http.server.ThreadingHTTPServer + urllib):
# it parses and re-serialises every JSON body and SSE event (scanning tools/list and tool results), forwards only
# content-type, accept, mcp-session-id, mcp-protocol-version, authorization and last-event-id, one new upstream
# connection per request (urllib, `Connection: close`), and copies back only mcp-session-id and mcp-protocol-version.
# The third: **my-cool-proxy** 1.6.2 (npm `@karashiiro/my-cool-proxy`, a "code mode" gateway: TS SDK 1.32.2 on both
# sides, hono, Lua in wasmoon, better-sqlite3), its documented HTTP mode: a config.json (CONFIG_PATH) with `port`,
# `host`, `transport: "http"` and `mcpClients: {"py": {"type": "http", "url": ...}}`. Its front offers meta tools
# (list-servers, list-server-tools, tool-details, execute(script), inspect-tool-response); `execute` runs a Lua script
# whose `py.<tool>(args):await()` calls the upstream. Each front session gets its own upstream session (plus one probe
# session at startup); front sessions and their SSE events (ids) live in a SQLite event store under HOME, so a
# restarted gateway restores a session and accepts Last-Event-ID.
#
# Scenarios (capture samples/ecosystem/gateways6-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   aw-py       agentwit front 19770, upstream the Python SDK server (../py_server.py, 19771). Client
#               ../gateways3/gw3_client.py (Python SDK 2.3.0): initialize, tools/list, add, echo, slow_count(3) with a
#               progressToken, add; the script restarts the upstream (SIGTERM, same port, a new process); add(2,3),
#               echo, add(5,5) in the same session; DELETE.
#   aw-ts       agentwit front 19772, upstream the TS SDK 1.32.2 server (../proxies/ts-server.mjs, 19773). Client
#               ../proxies2/ts_client.mjs (TS SDK 1.32.2) with slow_count(3).
#   aw-two      agentwit front 19774, upstream the Python SDK server (19775), two gw3_client.py runs (tags A and B)
#               whose calls start together (ready/go files): two sessions through one proxy and its connection pool.
#   aw-crash    agentwit front 19776, upstream the Python SDK server (19777). Client ../gateways5/crash_client.py:
#               add, then slow_count(40) during which the upstream is killed (SIGKILL) and a new one started; add(2,3),
#               add(5,5) in the same session; DELETE.
#   aw-down     as aw-crash (front 19778, upstream 19779) but the upstream is killed and NOT restarted: the later calls
#               and the SDK's GET reconnects meet agentwit's retries and 502s.
#   bg-py       bastiongate front 19780, upstream the Python SDK server (19781), gw3_client.py, upstream restarted
#               between calls as in aw-py.
#   bg-ts       bastiongate front 19782, upstream the TS SDK server (19783), ts_client.mjs with slow_count(3).
#   bg-crash    bastiongate front 19784, upstream the Python SDK server (19785), crash_client.py, upstream killed
#               during slow_count(40) and restarted.
#   aw-gwrestart agentwit front 19788, upstream the Python SDK server (19789), gw3_client.py; between the calls the
#               script restarts the GATEWAY (SIGINT, SIGKILL after 5 s, same port, a new process).
#   bg-gwrestart bastiongate front 19786, upstream the Python SDK server (19787), gw3_client.py; between the calls the
#               script restarts the GATEWAY (SIGINT, same port, a new process); the upstream keeps running.
#   cool-py     my-cool-proxy front 19770, upstream the Python SDK server (19771); client gateways6/cool_client.py
#               (Python SDK 2.3.0): tools/list, list-servers, list-server-tools, tool-details x3, execute add / echo /
#               slow_count(3) / add; the upstream is restarted; execute add, echo, add; DELETE. (Ports 19770-19779 are
#               shared with the aw-* scenarios: the scenarios run one after the other, each capture on its own ports.)
#   cool-gwrestart my-cool-proxy front 19772, upstream 19773, cool_client.py; the GATEWAY is restarted (SIGINT) between
#               calls.
#   cool-crash  my-cool-proxy front 19774, upstream 19775, cool_client.py --ready-file: execute slow_count(40) during
#               which the upstream is killed (SIGKILL) and a new one started; execute add, add.
#   cool-gwcrash my-cool-proxy front 19778, upstream 19779, the same client, but the GATEWAY is killed (SIGKILL) during
#               slow_count(40) and a new one started (same port, same HOME, so the same SQLite store).
#   cool-ts     my-cool-proxy front 19776, upstream the TS SDK server (../proxies/ts-server.mjs, 19777), cool_client.py.
#
# The upstream is up before the capture starts (its port seen in the socket table, no probe); the gateway is started
# inside the capture and watched for with `ss`; restarted processes' ports are watched going down and up with `ss`
# too (lib.sh `free` and `listening`, no connection). The gateway is stopped (SIGINT; SIGKILL after 5 s) before the
# capture ends. Each client run is bounded (timeout 60; 45 s inside the Python clients, 40 + N/10 s in the TS one).
#
# Offline: agentwit is run without webhook, notifier or config (no `agentwit init`); bastiongate without --otel;
# my-cool-proxy without dashboard or skills (it makes a per-session scratch dir `mcp-gateway-<session>-*` under TMPDIR,
# here its run directory, and removes it when the session closes, but not when it is SIGKILLed); a
# guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1
# is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py -> ../agentsjs/wire.py), ss, node >= 20 with
# npm, python3 (3.11), a C/C++ toolchain and make (better-sqlite3 is built from source, offline). First use makes
# gateways6/.venv-aw (requirements-aw.txt), gateways6/.venv-bg (requirements-bg.txt), gateways6/mcp-cool/node_modules
# (package-lock.json), sdks/.venv, proxies/node_modules and proxies2/node_modules, all git-ignored. Results and
# labels: samples/ecosystem/gateways6.md, samples/ecosystem/labels-gateways6.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"

setup() {
    setup_pysdk
    need_venv "$W/.venv-aw" "$W/requirements-aw.txt" agentwit
    need_venv "$W/.venv-bg" "$W/requirements-bg.txt" bastiongate
    need_npm "$ECO/proxies"
    need_npm "$ECO/proxies2"
    need_npm "$W/mcp-cool"
    # npm 11 does not run better-sqlite3's install script (prebuild-install, which would download): build it here,
    # offline, against the installed node's headers (Debian's nodejs ships them under <prefix>/include/node).
    local sq="$W/mcp-cool/node_modules/better-sqlite3"
    if [ ! -f "$sq/build/Release/better_sqlite3.node" ]; then
        (cd "$sq" && node "$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js" rebuild --release \
            --nodedir="$(dirname "$(dirname "$(command -v node)")")")
    fi
}

# up KIND PORT NAME: an upstream server in the background (py: the Python SDK server, Streamable HTTP; ts: the TS SDK
# server); its pid in UP_PID.
UP_PID=""
up() {
    case $1 in
        py) bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways6-py-server-{port}" ;;
        ts) bg "$3" env -C "$ECO/proxies" node ts-server.mjs "$2" ;;
    esac
    UP_PID=$LAST_PID
}

# halt PID: SIGINT to the process group started by bg, SIGKILL if it is still there after 5 s, reaped.
halt() {
    local i
    kill -INT -- "-$1" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# gateway NAME FRONT UPPORT KIND(aw|bg) LOGNAME: start the gateway (cwd and HOME in RUN/NAME); its pid in GW_PID.
GW_PID=""
gateway() {
    local name=$1 front=$2 uport=$3 kind=$4 dir="$RUN/$1"
    mkdir -p "$dir"
    case $kind in
        aw) bg "$5" env -C "$dir" HOME="$dir" "$W/.venv-aw/bin/agentwit" proxy --target "http://$HOST:$uport" \
                --host "$HOST" --port "$front" --log-dir "$dir/witness_logs" ;;
        bg) bg "$5" env -C "$dir" HOME="$dir" "$W/.venv-bg/bin/bastiongate" run-http --upstream "http://$HOST:$uport/mcp" \
                --host "$HOST" --port "$front" --log "$dir/bastiongate-trace.jsonl" ;;
        cool)
            printf '{"port": %s, "host": "%s", "transport": "http", "mcpClients": {"py": {"type": "http", "url": "http://%s:%s/mcp"}}}\n' \
                "$front" "$HOST" "$HOST" "$uport" >"$dir/config.json"
            bg "$5" env -C "$dir" HOME="$dir" TMPDIR="$dir" CONFIG_PATH="$dir/config.json" \
                node "$W/mcp-cool/node_modules/@karashiiro/my-cool-proxy/bin/my-cool-proxy.mjs" ;;
    esac
    GW_PID=$LAST_PID
}

# gw_scenario NAME GWKIND FRONT UPKIND UPPORT MODE -- CLIENT... : guard on, the upstream UPKIND up on UPPORT, capture of
# FRONT and UPPORT, the gateway started and watched for with ss, one bounded client run, the gateway stopped, capture
# stop and listing, everything down, guard off. MODE: no; restart (the upstream restarted (SIGTERM) when the client
# says so, between calls); crash (upstream killed (SIGKILL) 1.5 s into the client's slow call, a new one started);
# down (killed the same way, not restarted); gwcrash (the GATEWAY killed (SIGKILL) 1.5 s into the slow call and a new
# one started on the same port, same working directory); gwrestart (the gateway restarted (SIGINT) between calls); two (two
# clients, CLIENT run with --tag A and --tag B and ready/go files).
gw_scenario() {
    local name=$1 gwkind=$2 front=$3 kind=$4 uport=$5 mode=$6 c c2
    shift 6; [ "$1" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "$uport")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    rm -f "$RUN/$name".*ready "$RUN/$name".*go
    guard_start "$name"
    free "$front" "$uport"
    up "$kind" "$uport" "$name-$kind"; listening "$uport"; sleep 1
    capture_start "$name" "$front" "$uport"
    gateway "$name" "$front" "$uport" "$gwkind" "$name-gateway"
    listening "$front"
    sleep 1
    case $mode in
        gwcrash)
            timeout 60 "$@" --ready-file "$RUN/$name.ready" >"$RUN/$name-client.log" 2>&1 &
            c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name.ready" ] && break; sleep 0.1; done
            sleep 1.5
            echo "   killing (SIGKILL) the $gwkind gateway on $front during the slow call, then starting a new one"
            stop "$GW_PID" KILL
            free "$front"
            gateway "$name" "$front" "$uport" "$gwkind" "$name-gateway2"
            listening "$front"
            wait $c || echo "   (client exited with $?)"
            ;;
        crash|down)
            timeout 60 "$@" --ready-file "$RUN/$name.ready" >"$RUN/$name-client.log" 2>&1 &
            c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name.ready" ] && break; sleep 0.1; done
            sleep 1.5
            echo "   killing (SIGKILL) the $kind upstream on $uport during the slow call"
            stop "$UP_PID" KILL
            free "$uport"
            if [ "$mode" = crash ]; then
                echo "   starting a new $kind upstream on $uport"
                up "$kind" "$uport" "$name-${kind}2"; listening "$uport"
            fi
            wait $c || echo "   (client exited with $?)"
            ;;
        restart|gwrestart)
            timeout 60 "$@" --restart-ready-file "$RUN/$name.restart.ready" --restart-go-file "$RUN/$name.restart.go" \
                >"$RUN/$name-client.log" 2>&1 &
            c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name.restart.ready" ] && break; sleep 0.1; done
            if [ "$mode" = restart ]; then
                echo "   restarting the $kind upstream on $uport"
                stop "$UP_PID"
                free "$uport"
                up "$kind" "$uport" "$name-${kind}2"; listening "$uport"
            else
                echo "   restarting the $gwkind gateway on $front"
                halt "$GW_PID"
                free "$front"
                gateway "$name" "$front" "$uport" "$gwkind" "$name-gateway2"
                listening "$front"
            fi
            sleep 1
            touch "$RUN/$name.restart.go"
            wait $c || echo "   (client exited with $?)"
            ;;
        two)
            timeout 60 "$@" --tag A --ready-file "$RUN/$name.A.ready" --go-file "$RUN/$name.go" \
                >"$RUN/$name-client.log" 2>&1 &
            c=$!
            timeout 60 "$@" --tag B --ready-file "$RUN/$name.B.ready" --go-file "$RUN/$name.go" \
                >"$RUN/$name-clientB.log" 2>&1 &
            c2=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name.A.ready" ] && [ -e "$RUN/$name.B.ready" ] && break; sleep 0.1; done
            touch "$RUN/$name.go"
            wait $c || echo "   (client A exited with $?)"
            wait $c2 || echo "   (client B exited with $?)"
            grep -aE '^\[' "$RUN/$name-clientB.log" | cut -c1-160 | sed "s/^/   client B: /" || true
            ;;
        *)
            timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
            ;;
    esac
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    halt "$GW_PID"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    cat "$RUN/$name"-gateway*.log 2>/dev/null | grep -avE '^\s*$' | cut -c1-150 | tail -4 | sed "s/^/   gateway: /" || true
}

PYC=("$SDKPY" "$ECO/gateways3/gw3_client.py")
CRASHC=("$SDKPY" "$ECO/gateways5/crash_client.py")

scenario_aw-py()    { gw_scenario aw-py aw 19770 py 19771 restart -- "${PYC[@]}" "http://$HOST:19770/mcp"; }
scenario_aw-ts()    { gw_scenario aw-ts aw 19772 ts 19773 no -- node "$ECO/proxies2/ts_client.mjs" "http://$HOST:19772/mcp" 3; }
scenario_aw-two()   { gw_scenario aw-two aw 19774 py 19775 two -- "${PYC[@]}" "http://$HOST:19774/mcp"; }
scenario_aw-crash() { gw_scenario aw-crash aw 19776 py 19777 crash -- "${CRASHC[@]}" "http://$HOST:19776/mcp"; }
scenario_aw-down()  { gw_scenario aw-down aw 19778 py 19779 down -- "${CRASHC[@]}" "http://$HOST:19778/mcp"; }
scenario_bg-py()    { gw_scenario bg-py bg 19780 py 19781 restart -- "${PYC[@]}" "http://$HOST:19780/mcp"; }
scenario_bg-ts()    { gw_scenario bg-ts bg 19782 ts 19783 no -- node "$ECO/proxies2/ts_client.mjs" "http://$HOST:19782/mcp" 3; }
scenario_bg-crash() { gw_scenario bg-crash bg 19784 py 19785 crash -- "${CRASHC[@]}" "http://$HOST:19784/mcp"; }
COOLC=("$SDKPY" "$W/cool_client.py")
scenario_cool-py()    { gw_scenario cool-py cool 19770 py 19771 restart -- "${COOLC[@]}" "http://$HOST:19770/mcp"; }
scenario_cool-gwrestart() { gw_scenario cool-gwrestart cool 19772 py 19773 gwrestart -- "${COOLC[@]}" "http://$HOST:19772/mcp"; }
scenario_cool-crash() { gw_scenario cool-crash cool 19774 py 19775 crash -- "${COOLC[@]}" "http://$HOST:19774/mcp"; }
scenario_cool-gwcrash() { gw_scenario cool-gwcrash cool 19778 py 19779 gwcrash -- "${COOLC[@]}" "http://$HOST:19778/mcp"; }
scenario_cool-ts()    { gw_scenario cool-ts cool 19776 ts 19777 no -- "${COOLC[@]}" "http://$HOST:19776/mcp"; }
scenario_aw-gwrestart() { gw_scenario aw-gwrestart aw 19788 py 19789 gwrestart -- "${PYC[@]}" "http://$HOST:19788/mcp"; }
scenario_bg-gwrestart() { gw_scenario bg-gwrestart bg 19786 py 19787 gwrestart -- "${PYC[@]}" "http://$HOST:19786/mcp"; }

ALL=(aw-py aw-ts aw-two aw-crash aw-down aw-gwrestart bg-py bg-ts bg-crash bg-gwrestart cool-py cool-gwrestart cool-crash cool-gwcrash cool-ts)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

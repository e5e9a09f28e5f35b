#!/usr/bin/env bash
# mcptap ecosystem corpus, group "sensor2": mcptap's own live capture (`mcptap -i lo`, the build with the `live`
# feature) on real SDK and third-party traffic, side by side with tcpdump. For every scenario two captures run at the
# same time on loopback, both with the same filter (the scenario's ports): tcpdump -s 0 (the committed capture
# samples/ecosystem/sensor2-<scenario>.pcap) and `mcptap -i lo -w run/live-<scenario>.pcap -o run/live-<scenario>.csv`
# (or .jsonl); after the traffic the sensor is stopped with SIGINT or SIGTERM, its exit code and summary are kept, and
# sensor2/compare.py compares the live report with `mcptap -r` on the tcpdump capture and on the sensor's -w file.
# The live files stay in sensor2/run/ (git-ignored); the comparison is described in samples/ecosystem/sensor2.md.
# Nothing here is shaped but the resume group's relay cut (py-cut); every server and client is an existing corpus
# driver (paths below). Loopback only (127.0.0.1, ports 20490-20509):
#   py-ids            port 20490: Python SDK 2.3.0 server with an in-memory event store (../resume/resume_py.py
#                     server --store: SSE replies with uuid4 ids, priming events), the Python SDK client (resume_py.py
#                     client, mode="legacy"): tools/list, slow_count(5) with progress, add(40,2), DELETE.
#                     Sensor: one thread, CSV, stopped with SIGINT.
#   mcpclient-restart port 20491: npm mcp-client 1.13.1 (TS SDK 1.32.2, ../clients5/mcpclient_client.mjs restart) ->
#                     Python SDK server (../clients4/clients4_server.py): add, the server stopped and started again
#                     (sessions gone), add three times more (404s). Sensor: --threads 2, CSV, SIGTERM.
#   camel-fallback    port 20492: camel-ai 0.2.90 MCPToolkit (../clients5/camel_client.py, mcp 1.30.0) with a URL
#                     ending in /sse -> the Python SDK's legacy HTTP+SSE app (clients4_server.py --sse): POST /sse 405,
#                     then the HTTP+SSE session. Sensor: --format jsonl, SIGINT.
#   mpx-gateway       ports 20493 (front) / 20494 (upstream): mcp-proxy 0.13.0 (PyPI, mcp 1.30.0) server mode on
#                     20493 whose stdio child is mcp-proxy's own Streamable HTTP client mode to the Python SDK server
#                     (../py_server.py) on 20494; client ../gateways7/gw7_client.py (Python SDK 2.3.0). Both hops in
#                     one capture. Sensor: --threads 2 (two server addresses), CSV, SIGINT.
#   two-clients       port 20495: the TS SDK 1.32.2 server (../proxies2/ts-server.mjs) with two clients at once:
#                     gw7_client.py (Python SDK 2.3.0) and mcp-client (TS SDK, mcpclient_client.mjs). Sensor: one
#                     thread, CSV, SIGTERM.
#   py-cut            ports 20496 (relay) / 20497 (server): the resume group's relay (../resume/relay.py) cuts (RST
#                     both ways) the Python client's slow_count(20) POST SSE stream after 4 events; Python SDK server
#                     with event store (resume_py.py --store), the Python SDK client reconnects by itself. Both hops.
#                     Sensor: --threads 2, --format jsonl, SIGINT.
#   stall             port 20498: curl (sensor2/stall_client.sh) -> Python SDK server (clients4_server.py): initialize,
#                     tools/call slow_count(650) without progressToken (65 s of silence on its SSE reply, past
#                     mcptap's 60 s stall threshold, kept alive by the server's `: ping` comments), DELETE. Sensor:
#                     one thread, CSV, SIGINT.
#   quiet             port 20499: curl (stall_client.sh ... wait) -> the Python SDK server with JSON replies
#                     (sensor2/json_server.py, json_response=True: no SSE, no keep-alive comments): initialize, then
#                     tools/call wait(120); 72 s later, the request still unanswered and the link silent, the sensor
#                     (one thread, CSV, SIGTERM) and tcpdump are stopped; client and server are stopped after. Tests
#                     the wall-clock advance of live capture time against the file's own capture time.
# (Port 20500 served one side run of quiet with --threads 2 by hand, 20508 the exit-code checks, both outside any
# committed capture; see sensor2.md. 20501-20507 and 20509 are never listened on.)
#
#   sudo MCPTAP_LIVE=PATH/mcptap MCPTAP=PATH/mcptap bash samples/gen/ecosystem/sensor2.sh [SCENARIO..]
#
# MCPTAP_LIVE is the live build (`cargo build --release --features live`: mcptap and mcptap-live side by side),
# MCPTAP the binary compare.py runs `-r` with (default: the live one). Needs root, tcpdump, tshark, ss, python3 (3.11),
# node 20 + npm. Uses the sdks group's venv (sdks/.venv), clients5's node_modules and .venv-camel, gateways9's
# .venv-proxy (mcp-proxy) and proxies2's node_modules, made by those scripts' setup (re-made here if missing).
# Results and labels: samples/ecosystem/sensor2.md, samples/ecosystem/labels-sensor2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/sensor2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=sensor2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1 NODE_ENV=production \
    ANONYMIZED_TELEMETRY=False CAMEL_TELEMETRY=false FASTMCP_SHOW_CLI_BANNER=false

LIVE="${MCPTAP_LIVE:-$(command -v mcptap || true)}"
MCPTAP="${MCPTAP:-$LIVE}"
SDKPY="$ECO/sdks/.venv/bin/python"
C4=("$SDKPY" "$ECO/clients4/clients4_server.py")         # PORT --name NAME [--sse]
RPY=("$SDKPY" "$ECO/resume/resume_py.py")                 # server --port N --store | client --url U slow N
CAMEL=("$ECO/clients5/.venv-camel/bin/python" "$ECO/clients5/camel_client.py")
MCPCLIENT=(env -C "$ECO/clients5" node mcpclient_client.mjs)
GW7=("$SDKPY" "$ECO/gateways7/gw7_client.py")
MPX="$ECO/gateways9/.venv-proxy/bin/mcp-proxy"

setup() {
    [ -x "$LIVE" ] || { echo "set MCPTAP_LIVE to the live build of mcptap" >&2; exit 1; }
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$ECO/clients5"
    need_venv "$ECO/clients5/.venv-camel" "$ECO/clients5/requirements-camel.txt"
    need_venv "$ECO/gateways9/.venv-proxy" "$ECO/gateways9/requirements-proxy.txt" mcp-proxy
}

# sensor_start NAME SIGNAL ARGS... -- PORT...: mcptap -i lo on those ports (the tcpdump filter), -w RUN/live-NAME.pcap,
# the report into RUN/live-NAME.csv (or .jsonl with --format jsonl among ARGS), summary into RUN/live-NAME.log.
SENSOR_PID=""
SENSOR_SIG=""
trap 'cleanup; [ -z "$SENSOR_PID" ] || kill -INT "$SENSOR_PID" 2>/dev/null || true; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT
sensor_start() {
    local name=$1 sig=$2; shift 2
    local args=() ext=csv filter="" p
    while [ "$1" != "--" ]; do args+=("$1"); [ "$1" = jsonl ] && ext=jsonl; shift; done
    shift
    for p in "$@"; do filter="${filter:+$filter or }tcp port $p"; done
    rm -f "$RUN/live-$name".*
    "$LIVE" -i lo -w "$RUN/live-$name.pcap" -o "$RUN/live-$name.$ext" --sensor sensor2 --stats-interval 2 \
        --stats-file "$RUN/live-$name.stats.jsonl" "${args[@]}" $filter 2>"$RUN/live-$name.log" &
    SENSOR_PID=$!
    SENSOR_SIG=$sig
    echo "   sensor: mcptap -i lo -w live-$name.pcap -o live-$name.$ext --sensor sensor2 --stats-interval 2 ${args[*]} $filter"
    wait_capturing "$RUN/live-$name.log"
}
# sensor_stop NAME: SIGNAL to the sensor, wait at most 30 s (a hang is reported and the sensor killed), exit code.
sensor_stop() {
    local name=$1 rc=0 i
    kill "-$SENSOR_SIG" "$SENSOR_PID"
    for i in $(seq 1 300); do kill -0 "$SENSOR_PID" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$SENSOR_PID" 2>/dev/null; then
        echo "   SENSOR HANG: still running 30 s after SIG$SENSOR_SIG; killed" | tee -a "$RUN/live-$name.log"
        kill -KILL "$SENSOR_PID"
    fi
    wait "$SENSOR_PID" || rc=$?
    echo "$rc" >"$RUN/live-$name.rc"
    echo "   sensor stopped with SIG$SENSOR_SIG: exit $rc"
    SENSOR_PID=""
}
# compare NAME: the live report against mcptap -r of both captures (sensor2/compare.py), into RUN/compare-NAME.txt.
compare() {
    local name=$1 rep
    rep="$RUN/live-$name.csv"; [ -f "$rep" ] || rep="$RUN/live-$name.jsonl"
    python3 "$W/compare.py" "$MCPTAP" "$rep" "$RUN/live-$name.pcap" "$CAP/$GROUP-$name.pcap" >"$RUN/compare-$name.txt" 2>&1 || true
    sed 's/^/   /' "$RUN/compare-$name.txt"
}

# begin NAME SIGNAL SENSOR-ARGS... -- PORT...: guard, tcpdump and the sensor on (servers are started by the caller
# before, so no refused connection is captured).
begin() {
    local name=$1 sig=$2; shift 2
    local sargs=()
    while [ "$1" != "--" ]; do sargs+=("$1"); shift; done
    shift
    capture_start "$name" "$@"
    sensor_start "$name" "$sig" "${sargs[@]}" -- "$@"
}
# end NAME: sensor off (its signal), tcpdump off and listing, everything down, guard off, comparison.
end() {
    sleep 1
    sensor_stop "$1"
    capture_stop "$1"
    cleanup
    sleep 1
    guard_stop "$1"
    compare "$1"
}
U() { echo "http://$HOST:$1/mcp"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_py-ids() {
    local n=py-ids p=20490
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" "${RPY[@]}" server --port "$p" --store
    begin "$n" INT -- "$p"
    run "$n-client" "${RPY[@]}" client --url "$(U $p)" slow 5
    end "$n"
}

scenario_mcpclient-restart() {
    local n=mcpclient-restart p=20491 cpid i
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" "${C4[@]}" "$p" --name "sensor2-$n-first"
    begin "$n" TERM --threads 2 -- "$p"
    timeout 60 "${MCPCLIENT[@]}" "$(U $p)" restart >"$RUN/$n-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do grep -q '^add ->' "$RUN/$n-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$p"
    bg "$n-server2" "${C4[@]}" "$p" --name "sensor2-$n-second"
    listening "$p"
    wait "$cpid" || echo "   ($n-client exited with $?)"
    sed 's/^/   client: /' "$RUN/$n-client.log" | tail -8
    end "$n"
}

scenario_camel-fallback() {
    local n=camel-fallback p=20492
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" "${C4[@]}" "$p" --name "sensor2-$n" --sse
    begin "$n" INT --format jsonl -- "$p"
    run "$n-client" "${CAMEL[@]}" "http://$HOST:$p/sse" auto
    end "$n"
}

scenario_mpx-gateway() {
    local n=mpx-gateway f=20493 p=20494 dir="$RUN/mpx-gateway"
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" "$f" "$p"); free "$f" "$p"; rm -f "$RUN/$n"-*.log
    mkdir -p "$dir"
    guard_start "$n"
    server "$n-upstream" "$p" "$SDKPY" "$ECO/py_server.py" "$p" --name "sensor2-upstream-{port}"
    begin "$n" INT --threads 2 -- "$f" "$p"
    bg "$n-gateway" env -C "$dir" HOME="$dir" "$MPX" --pass-environment --host "$HOST" --port "$f" -- \
        "$MPX" --transport streamablehttp "$(U $p)"
    listening "$f"
    sleep 1
    run "$n-client" "${GW7[@]}" "http://$HOST:$f/mcp/" --tag A --timeout 40
    stop "$LAST_PID" INT
    end "$n"
}

scenario_two-clients() {
    local n=two-clients p=20495 c1 c2
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" node "$ECO/proxies2/ts-server.mjs" "$p"
    begin "$n" TERM -- "$p"
    timeout 60 "${GW7[@]}" "$(U $p)" --tag A --timeout 40 >"$RUN/$n-client-py.log" 2>&1 & c1=$!
    timeout 60 "${MCPCLIENT[@]}" "$(U $p)" >"$RUN/$n-client-ts.log" 2>&1 & c2=$!
    wait "$c1" || echo "   ($n-client-py exited with $?)"
    wait "$c2" || echo "   ($n-client-ts exited with $?)"
    tail -n 4 "$RUN/$n-client-py.log" "$RUN/$n-client-ts.log" | sed 's/^/   /'
    end "$n"
}

scenario_py-cut() {
    local n=py-cut f=20496 p=20497
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" "$f" "$p"); free "$f" "$p"; rm -f "$RUN/$n"-*.log "$RUN/$n.cut"
    guard_start "$n"
    server "$n-server" "$p" "${RPY[@]}" server --port "$p" --store
    server "$n-relay" "$f" "$SDKPY" "$ECO/resume/relay.py" --listen "$f" --to "$p" --match '"name":"slow_count"' \
        --after 4 --cut-file "$RUN/$n.cut"
    begin "$n" INT --threads 2 --format jsonl -- "$f" "$p"
    run "$n-client" "${RPY[@]}" client --url "$(U $f)" slow 20
    end "$n"
}

scenario_stall() {
    local n=stall p=20498
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" "${C4[@]}" "$p" --name "sensor2-$n"
    begin "$n" INT -- "$p"
    timeout 100 bash "$W/stall_client.sh" "$(U $p)" 650 >"$RUN/$n-client.log" 2>&1 || echo "   ($n-client exited with $?)"
    cut -c1-150 "$RUN/$n-client.log" | sed 's/^/   client: /'
    end "$n"
}

scenario_quiet() {
    local n=quiet p=20499
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$p"); free "$p"; rm -f "$RUN/$n"-*.log
    guard_start "$n"
    server "$n-server" "$p" "$SDKPY" "$W/json_server.py" "$p"
    begin "$n" TERM -- "$p"
    bg "$n-client" timeout 100 bash "$W/stall_client.sh" "$(U $p)" 120 wait
    sleep 72
    cut -c1-150 "$RUN/$n-client.log" | sed 's/^/   client: /'
    end "$n"
}

ALL=(py-ids mcpclient-restart camel-fallback mpx-gateway two-clients py-cut stall quiet)

run_scenarios "tcpdump tshark ss node" -- "$@"

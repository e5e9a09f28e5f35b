#!/usr/bin/env bash
# mcptap ecosystem corpus, group "sensor3": REAL capture loss under real MCP load. Official SDK servers and many
# concurrent official SDK client sessions (tools/list of 103 tools with long descriptions, bursts of tools/call, a
# 256 KiB tool result) are captured on loopback by tcpdump and, at the same time, by mcptap's live sensor
# (`mcptap -i lo`, the build with the `live` feature), both with a SMALL kernel capture buffer (-B, KiB), so that the
# kernel really drops packets; one clean run (-B 65536 for both) of the same load for contrast. Nothing is shaped: the
# only loss is the capture's own. The tcpdump file is the committed capture samples/ecosystem/sensor3-<scenario>.pcap;
# the sensor's -w file, report, summary and stats stay in sensor3/run/ (git-ignored). Every client logs each call's
# result (one JSON line per call, run/<scenario>-client.log): the truth the labels are checked against.
# Loopback only (127.0.0.1, ports 20750-20769):
#   py-sse-b64   port 20750: Python SDK mcp 2.3.0 server (sensor3/server.py sse: SSE replies, in-memory event store,
#                uuid4 event ids) <- 20 concurrent Python SDK 2.3.0 client sessions (sensor3/client.py, mode="legacy"),
#                every 10th with big(200). tcpdump -B 64, sensor -B 256 (mcptap's least).
#   py-json-b256 port 20751: the same server with json_response=True (server.py json) <- the same 20 Python sessions.
#                tcpdump -B 256, sensor -B 256.
#   ts-b64       port 20752: TypeScript SDK 1.32.2 server on express 5.3.0 (sensor3/ts_server.mjs, stateful, SSE
#                replies, no event store) <- 20 concurrent TS SDK 1.32.2 client sessions (sensor3/ts_client.mjs).
#                tcpdump -B 64, sensor -B 256.
#   py-sse-clean port 20753: as py-sse-b64 with -B 65536 (64 MiB) for both: no drop.
#
#   sudo MCPTAP_LIVE=PATH/mcptap bash samples/gen/ecosystem/sensor3.sh [SCENARIO..]
#
# Needs root, tcpdump, tshark, ss, python3 (3.11), node 20 + npm. Makes sensor3/.venv (requirements.txt) and
# sensor3/node_modules (package-lock.json). Results and labels: samples/ecosystem/sensor3.md, labels-sensor3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/sensor3"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=sensor3
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production

LIVE="${MCPTAP_LIVE:-$(command -v mcptap || true)}"
PY="$W/.venv/bin/python"
SESSIONS=20 BIG_EVERY=10 BIG_KB=200

setup() {
    [ -x "$LIVE" ] || { echo "set MCPTAP_LIVE to the live build of mcptap" >&2; exit 1; }
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

SENSOR_PID=""
trap 'cleanup; [ -z "$SENSOR_PID" ] || kill -INT "$SENSOR_PID" 2>/dev/null || true; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT

# begin NAME BUF SBUF PORT: tcpdump -B BUF and the sensor -B SBUF (mcptap refuses less than 256 KiB) on tcp port
# PORT, both on lo at the same time.
begin() {
    local name=$1 buf=$2 sbuf=$3 port=$4
    rm -f "$CAP/$GROUP-$name.pcap" "$RUN/live-$name".*
    tcpdump -i lo -s 0 -U -B "$buf" -w "$CAP/$GROUP-$name.pcap" "tcp port $port" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
    "$LIVE" -i lo -B "$sbuf" -w "$RUN/live-$name.pcap" -o "$RUN/live-$name.csv" --sensor sensor3 --stats-interval 2 \
        --stats-file "$RUN/live-$name.stats.jsonl" tcp port "$port" 2>"$RUN/live-$name.log" &
    SENSOR_PID=$!
    wait_capturing "$RUN/live-$name.log"
    echo "   tcpdump -i lo -s 0 -U -B $buf; mcptap -i lo -B $sbuf -w live-$name.pcap -o live-$name.csv (tcp port $port)"
}
# end NAME: sensor off (SIGINT, its summary kept), tcpdump off (its drop count kept), listing, everything down.
end() {
    local name=$1 rc=0
    sleep 1
    kill -INT "$SENSOR_PID"; wait "$SENSOR_PID" || rc=$?; SENSOR_PID=""
    echo "   sensor exit $rc:"; grep -iE 'drop|gap|missed|packets|incidents' "$RUN/live-$name.log" | sed 's/^/     /'
    sleep 1
    kill -INT "$TCPDUMP_PID"; wait "$TCPDUMP_PID" 2>/dev/null || true; TCPDUMP_PID=""
    echo "   tcpdump:"; grep -E 'packets' "$RUN/tcpdump-$name.log" | sed 's/^/     /'
    chmod 644 "$CAP/$GROUP-$name.pcap"
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
    echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes)"
    cleanup
    sleep 1
    guard_stop "$name"
}
# load NAME LANG URL: the clients (py: client.py, ts: ts_client.mjs), bounded, one JSON line per call.
load() {
    local name=$1 lang=$2 url=$3 rc=0
    if [ "$lang" = py ]; then
        timeout 120 "$PY" "$W/client.py" "$url" "$SESSIONS" "$BIG_EVERY" "$BIG_KB" >"$RUN/$name-client.log" 2>"$RUN/$name-client.err" || rc=$?
    else
        timeout 120 env -C "$W" node ts_client.mjs "$url" "$SESSIONS" "$BIG_EVERY" "$BIG_KB" >"$RUN/$name-client.log" 2>"$RUN/$name-client.err" || rc=$?
    fi
    echo "   clients (exit $rc): $(tail -1 "$RUN/$name-client.log")"
    grep '"ok": *false' "$RUN/$name-client.log" | head -5 | cut -c1-200 | sed 's/^/   FAILED: /' || true
}

scenario_py-sse-b64() {
    local n=py-sse-b64 p=20750
    DESCRIBE=("$PY" "$W/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" "$PY" "$W/server.py" "$p" sse
    begin "$n" 64 256 "$p"
    load "$n" py "http://$HOST:$p/mcp"
    end "$n"
}
scenario_py-json-b256() {
    local n=py-json-b256 p=20751
    DESCRIBE=("$PY" "$W/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" "$PY" "$W/server.py" "$p" json
    begin "$n" 256 256 "$p"
    load "$n" py "http://$HOST:$p/mcp"
    end "$n"
}
scenario_ts-b64() {
    local n=ts-b64 p=20752
    DESCRIBE=("$PY" "$W/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" node "$W/ts_server.mjs" "$p"
    begin "$n" 64 256 "$p"
    load "$n" ts "http://$HOST:$p/mcp"
    end "$n"
}
scenario_py-sse-clean() {
    local n=py-sse-clean p=20753
    DESCRIBE=("$PY" "$W/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" "$PY" "$W/server.py" "$p" sse
    begin "$n" 65536 65536 "$p"
    load "$n" py "http://$HOST:$p/mcp"
    end "$n"
}

ALL=(py-sse-b64 py-json-b256 ts-b64 py-sse-clean)

run_scenarios "tcpdump tshark ss node" -- "$@"

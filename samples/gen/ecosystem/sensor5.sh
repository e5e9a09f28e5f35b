#!/usr/bin/env bash
# mcptap ecosystem corpus, group "sensor5": mcptap's live sensor (`mcptap -i ...`, the build with the `live` feature)
# beside tcpdump (-i lo -s 0 -U -B 65536: the committed capture samples/ecosystem/sensor5-<scenario>.pcap) in the
# situations a real sensor meets: started in the middle of running sessions, restarted mid-session, on `-i any`
# (Linux cooked capture v2), and behind a filter that passes only one direction. The traffic is the same in every
# scenario: sensor4's TS SDK server (sensor5/ts_server.mjs, SSE replies, 20 lookup tools) <- 3 Python SDK sessions
# (long.py) and 3 TS SDK sessions (long.mjs) at once, each 25 s long: add() once a second, slow_count(100) (10 s of
# progress) from 6 s on, the SDK's own GET stream, then DELETE. The sensor's -w file(s), reports, summaries and the
# comparisons (../sensor4/compare.py: live report against `mcptap -r` of the tcpdump file and of the -w
# files) stay in sensor5/run/ (git-ignored). Loopback only (127.0.0.1, ports 20850-20854):
#   midstart 20850: tcpdump first, the clients, the sensor 5 s after the clients start, stopped (SIGINT) 12 s later,
#            before the sessions end.
#   restart  20851: tcpdump and the sensor, the clients; 10 s in the sensor gets SIGTERM; 2 s later a new sensor
#            starts with a new -w and -o and runs to the end.
#   any      20852: the sensor on `-i any` (and a second tcpdump on `-i any`, run/any-any.pcap, for `mcptap -r`).
#   onedir   20853: two sensors at once, one with `tcp src port 20853` (server to client only), one with `tcp dst port
#            20853` (client to server only); tcpdump keeps both directions.
#   onedir70 20854: the same with sessions 70 s long (past the 60 s stall threshold, for the requests-only sensor).
#
#   sudo MCPTAP_LIVE=PATH/mcptap bash samples/gen/ecosystem/sensor5.sh [SCENARIO..]
#
# Needs root, tcpdump, tshark, ss, python3 (3.11), node 20 + npm. Makes sensor5/.venv (requirements.txt, sensor4's)
# and sensor5/node_modules (package-lock.json, sensor4's). Results and labels: samples/ecosystem/sensor5.md,
# labels-sensor5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/sensor5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=sensor5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production
export LOOKUP_TOOLS=20
SESSIONS=3 SECONDS_LONG=25

LIVE="${MCPTAP_LIVE:-$(command -v mcptap || true)}"
PY="$W/.venv/bin/python"

setup() {
    [ -x "$LIVE" ] || { echo "set MCPTAP_LIVE to the live build of mcptap" >&2; exit 1; }
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

SENSORS=()
trap 'cleanup; for s in "${SENSORS[@]:-}"; do [ -z "$s" ] || kill -INT "$s" 2>/dev/null || true; done; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT

# tcpdump_start NAME PORT: the committed capture.
tcpdump_start() {
    rm -f "$CAP/$GROUP-$1.pcap"
    tcpdump -i lo -s 0 -U -B 65536 -w "$CAP/$GROUP-$1.pcap" "tcp port $2" 2>"$RUN/tcpdump-$1.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$1.log"
}
# sensor_start TAG IFACE FILTER...: the sensor, -w run/live-TAG.pcap -o run/live-TAG.csv; its pid in SENSOR_PID.
sensor_start() {
    local tag=$1 ifc=$2; shift 2
    rm -f "$RUN/live-$tag".*
    "$LIVE" -i "$ifc" -B 65536 -w "$RUN/live-$tag.pcap" -o "$RUN/live-$tag.csv" --sensor sensor5 \
        --stats-file "$RUN/live-$tag.stats.jsonl" --stats-interval 2 "$@" 2>"$RUN/live-$tag.log" &
    SENSOR_PID=$!
    SENSORS+=("$SENSOR_PID")
    wait_capturing "$RUN/live-$tag.log"
    echo "   sensor $tag: mcptap -i $ifc -B 65536 -w live-$tag.pcap -o live-$tag.csv $* at $(date +%s.%N)" | tee -a "$RUN/times.txt"
}
# sensor_stop PID TAG SIGNAL
sensor_stop() {
    local rc=0
    echo "   sensor $2: SIG$3 at $(date +%s.%N)" | tee -a "$RUN/times.txt"
    kill "-$3" "$1"; wait "$1" || rc=$?
    echo "   sensor $2 exit $rc"
}
# load NAME PORT: the 3 Python and 3 TS long sessions, in the background (pids in LOAD).
load() {
    local name=$1 port=$2
    timeout 120 "$PY" "$W/long.py" "http://$HOST:$port/mcp" "$SESSIONS" "$SECONDS_LONG" >"$RUN/$name-py.log" 2>"$RUN/$name-py.err" &
    LOAD=($!)
    timeout 120 env -C "$W" node long.mjs "http://$HOST:$port/mcp" "$SESSIONS" "$SECONDS_LONG" >"$RUN/$name-ts.log" 2>"$RUN/$name-ts.err" &
    LOAD+=($!)
    echo "   clients started at $(date +%s.%N)" | tee -a "$RUN/times.txt"
}
load_wait() {
    local name=$1
    wait "${LOAD[@]}" || true
    echo "   python clients: $(tail -1 "$RUN/$name-py.log"); ts clients: $(tail -1 "$RUN/$name-ts.log")"
}
# finish NAME: tcpdump off, listing, everything down.
finish() {
    local name=$1
    sleep 1
    kill -INT "$TCPDUMP_PID"; wait "$TCPDUMP_PID" 2>/dev/null || true; TCPDUMP_PID=""
    grep -E 'packets' "$RUN/tcpdump-$name.log" | sed 's/^/   tcpdump: /'
    chmod 644 "$CAP/$GROUP-$name.pcap"
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
    echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes)"
    cleanup
    sleep 1
    guard_stop "$name"
}
compare() {   # compare NAME REPORTS PCAPS [TCPDUMP-PCAP]
    local name=$1 reports=$2 pcaps=$3 ref=${4:-$CAP/$GROUP-$1.pcap}
    python3 "$ECO/sensor4/compare.py" "$LIVE" "$reports" "$pcaps" "$ref" | tee "$RUN/compare-$name.txt" | cut -c1-300
}
prepare() {   # prepare NAME PORT: listing command, port free, guard, server
    DESCRIBE=("$PY" "$ECO/sensor3/wire.py" - "$2"); free "$2"
    guard_start "$1"
    server "$1-server" "$2" node "$W/ts_server.mjs" "$2"
}

scenario_midstart() {
    local n=midstart p=20850 s
    prepare "$n" "$p"
    tcpdump_start "$n" "$p"
    load "$n" "$p"
    sleep 5
    sensor_start "$n" lo tcp port "$p"; s=$SENSOR_PID
    sleep 12
    sensor_stop "$s" "$n" INT
    load_wait "$n"
    finish "$n"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap"
}
scenario_restart() {
    local n=restart p=20851 s1 s2
    prepare "$n" "$p"
    tcpdump_start "$n" "$p"
    sensor_start "$n-1" lo tcp port "$p"; s1=$SENSOR_PID
    load "$n" "$p"
    sleep 10
    sensor_stop "$s1" "$n-1" TERM
    sleep 2
    sensor_start "$n-2" lo tcp port "$p"; s2=$SENSOR_PID
    load_wait "$n"
    sleep 1
    sensor_stop "$s2" "$n-2" INT
    finish "$n"
    compare "$n-1" "$RUN/live-$n-1.csv" "$RUN/live-$n-1.pcap" "$CAP/$GROUP-$n.pcap"
    compare "$n-2" "$RUN/live-$n-2.csv" "$RUN/live-$n-2.pcap" "$CAP/$GROUP-$n.pcap"
    compare "$n-both" "$RUN/live-$n-1.csv,$RUN/live-$n-2.csv" "$RUN/live-$n-1.pcap,$RUN/live-$n-2.pcap" "$CAP/$GROUP-$n.pcap"
}
scenario_any() {
    local n=any p=20852 s t
    prepare "$n" "$p"
    tcpdump_start "$n" "$p"
    tcpdump -i any -s 0 -U -B 65536 -w "$RUN/any-any.pcap" "tcp port $p" 2>"$RUN/tcpdump-any-any.log" &
    t=$!
    wait_capturing "$RUN/tcpdump-any-any.log"
    sensor_start "$n" any tcp port "$p"; s=$SENSOR_PID
    load "$n" "$p"
    load_wait "$n"
    sleep 1
    sensor_stop "$s" "$n" INT
    kill -INT "$t"; wait "$t" 2>/dev/null || true
    finish "$n"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap"
    compare "$n-anyfile" "$RUN/live-$n.csv" "$RUN/live-$n.pcap" "$RUN/any-any.pcap"
}
scenario_onedir() { onedir onedir 20853 "$SECONDS_LONG"; }
scenario_onedir70() { onedir onedir70 20854 70; }
# onedir NAME PORT SECONDS: tcpdump both ways; one sensor `tcp src port P`, one `tcp dst port P`.
onedir() {
    local n=$1 p=$2 SECONDS_LONG=$3 s1 s2
    prepare "$n" "$p"
    tcpdump_start "$n" "$p"
    sensor_start "$n-src" lo tcp src port "$p"; s1=$SENSOR_PID
    sensor_start "$n-dst" lo tcp dst port "$p"; s2=$SENSOR_PID
    load "$n" "$p"
    load_wait "$n"
    sleep 1
    sensor_stop "$s1" "$n-src" INT
    sensor_stop "$s2" "$n-dst" INT
    finish "$n"
    compare "$n-src" "$RUN/live-$n-src.csv" "$RUN/live-$n-src.pcap" "$CAP/$GROUP-$n.pcap"
    compare "$n-dst" "$RUN/live-$n-dst.csv" "$RUN/live-$n-dst.pcap" "$CAP/$GROUP-$n.pcap"
}

ALL=(midstart restart any onedir onedir70)

run_scenarios "tcpdump tshark ss node" -- "$@"

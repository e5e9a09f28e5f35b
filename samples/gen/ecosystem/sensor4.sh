#!/usr/bin/env bash
# mcptap ecosystem corpus, group "sensor4": mcptap's live sensor (`mcptap -i lo`, the build with the `live` feature,
# capturing in TPACKET_V3 blocks with a 10 ms block timeout) beside tcpdump on real official-SDK traffic, both with
# the scenario's port filter and a 64 MiB kernel buffer (-B 65536) unless said. The tcpdump file is the committed
# capture samples/ecosystem/sensor4-<scenario>.pcap; the sensor's -w file(s), report, summary, stats and the
# comparison (sensor4/compare.py: live report against `mcptap -r` of the tcpdump file and of the -w files) stay in
# sensor4/run/ (git-ignored). Every client logs each call's result (run/<scenario>-client*.log).
# Loopback only (127.0.0.1, ports 20810-20814):
#   tls      20810: Python SDK mcp 2.3.0 server (sensor4/server.py sse, uvicorn ssl_certfile/ssl_keyfile with a
#            self-signed certificate made by openssl in run/) <- 10 Python SDK client sessions (client.py,
#            SSL_CERT_FILE, SSLKEYLOGFILE) and 10 TS SDK 1.32.2 client sessions (ts_client.mjs, NODE_EXTRA_CA_CERTS,
#            node --tls-keylog) at once. Sensor: --threads 2 --keylog (both key logs, followed as they grow). The two
#            (one big(50) per client kind.) The two key logs are joined into samples/ecosystem/sensor4-tls.keys for `mcptap -r ... --keylog`.
#   rotate   20811: TS server (SSE) <- 10 Python sessions and 10 TS sessions that first try a stale session id (as
#            in latency), then (2.5 s later) the same again. Sensor: -C 1 -G 2; 0.5 s into the first wave the
#            report is renamed and SIGHUP sent (as dist/mcptap.logrotate does: report reopened, new -w file).
#   quiet    20812: TS SDK server (ts_server.mjs json: enableJsonResponse) <- ONE Python SDK session: tools/call
#            wait(70) (quiet.py), nothing else; both captures stopped after the answer and the close.
#   stats    20813: TS server (SSE replies) <- 3 waves of 15 TS sessions (one big(50) each), 2 s apart. Sensor: --stats-interval 1
#            --stats-file and -B 256 (mcptap's least; tcpdump keeps -B 65536).
#   latency  20814: TS server (SSE) <- 20 TS sessions that first try to resume a session id the server never issued
#            (ts_client.mjs stale: the server answers 400), then work normally; watch.py notes when each row
#            appears in the report; latency.py: row time minus the evidence packet's stamp in the -w file.
#
#   sudo MCPTAP_LIVE=PATH/mcptap bash samples/gen/ecosystem/sensor4.sh [SCENARIO..]
#
# Needs root, tcpdump, tshark, ss, openssl, python3 (3.11), node 20 + npm. Makes sensor4/.venv (requirements.txt)
# and sensor4/node_modules (package-lock.json). Results and labels: samples/ecosystem/sensor4.md, labels-sensor4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/sensor4"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=sensor4
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production
export LOOKUP_TOOLS=20   # the servers list 20 lookup tools + add, big, slow_count, wait (tools/list about 14 KB)

LIVE="${MCPTAP_LIVE:-$(command -v mcptap || true)}"
PY="$W/.venv/bin/python"

setup() {
    [ -x "$LIVE" ] || { echo "set MCPTAP_LIVE to the live build of mcptap" >&2; exit 1; }
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

SENSOR_PID=""
trap 'cleanup; [ -z "$SENSOR_PID" ] || kill -INT "$SENSOR_PID" 2>/dev/null || true; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT

# begin NAME PORT SBUF SENSOR-FLAGS...: tcpdump -B 65536 and the sensor (-B SBUF, -w run/live-NAME.pcap, -o
# run/live-NAME.csv, stats every 2 s unless the flags say otherwise) on tcp port PORT, both on lo at once.
begin() {
    local name=$1 port=$2 sbuf=$3; shift 3
    rm -f "$CAP/$GROUP-$name.pcap" "$RUN/live-$name".* "$RUN/live-$name".pcap[0-9]*
    tcpdump -i lo -s 0 -U -B 65536 -w "$CAP/$GROUP-$name.pcap" "tcp port $port" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
    "$LIVE" -i lo -B "$sbuf" -w "$RUN/live-$name.pcap" -o "$RUN/live-$name.csv" --sensor sensor4 \
        --stats-file "$RUN/live-$name.stats.jsonl" "$@" tcp port "$port" 2>"$RUN/live-$name.log" &
    SENSOR_PID=$!
    wait_capturing "$RUN/live-$name.log"
    echo "   tcpdump -i lo -s 0 -U -B 65536; mcptap -i lo -B $sbuf -w live-$name.pcap -o live-$name.csv $* (tcp port $port)"
}
# end NAME: sensor off (SIGINT, its summary kept), tcpdump off (its counts kept), listing, everything down.
end() {
    local name=$1 rc=0
    sleep 1
    kill -INT "$SENSOR_PID"; wait "$SENSOR_PID" || rc=$?; SENSOR_PID=""
    echo "   sensor exit $rc"
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
# compare NAME REPORTS PCAPS [KEYLOG..]: compare.py, into run/compare-NAME.txt and on stdout.
compare() {
    local name=$1 reports=$2 pcaps=$3; shift 3
    python3 "$W/compare.py" "$LIVE" "$reports" "$pcaps" "$CAP/$GROUP-$name.pcap" "$@" | tee "$RUN/compare-$name.txt" | cut -c1-300
}
# pyload NAME URL SESSIONS BIG_EVERY BIG_KB / tsload NAME URL SESSIONS BIG_EVERY BIG_KB [stale]: the clients,
# bounded, one JSON line per call in run/NAME-client.log.
pyload() {
    local name=$1 rc=0; shift
    timeout 120 "$PY" "$W/client.py" "$@" >"$RUN/$name-client.log" 2>"$RUN/$name-client.err" || rc=$?
    echo "   python clients (exit $rc): $(tail -1 "$RUN/$name-client.log")"
}
tsload() {
    local name=$1 rc=0; shift
    timeout 120 env -C "$W" node ${TSFLAGS:-} ts_client.mjs "$@" >"$RUN/$name-client.log" 2>"$RUN/$name-client.err" || rc=$?
    echo "   ts clients (exit $rc): $(tail -1 "$RUN/$name-client.log")"
}

scenario_tls() {
    local n=tls p=20810
    DESCRIBE=("$PY" "$ECO/tls2/wire.py" - "$p"); free "$p"   # tls2's listing: TLS decrypted with the .keys beside
    [ -f "$RUN/tls-cert.pem" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=localhost" \
        -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout "$RUN/tls-key.pem" -out "$RUN/tls-cert.pem" 2>/dev/null
    rm -f "$RUN/tls-py.keys" "$RUN/tls-ts.keys"; : >"$RUN/tls-py.keys"; : >"$RUN/tls-ts.keys"
    guard_start "$n"
    server "$n-server" "$p" "$PY" "$W/server.py" "$p" sse "$RUN/tls-cert.pem" "$RUN/tls-key.pem"
    begin "$n" "$p" 65536 --threads 2 --keylog "$RUN/tls-py.keys" --keylog "$RUN/tls-ts.keys" --stats-interval 2
    SSL_CERT_FILE="$RUN/tls-cert.pem" SSLKEYLOGFILE="$RUN/tls-py.keys" pyload "$n-py" "https://$HOST:$p/mcp" 10 10 50 &
    local a=$!
    NODE_EXTRA_CA_CERTS="$RUN/tls-cert.pem" TSFLAGS="--tls-keylog=$RUN/tls-ts.keys" tsload "$n-ts" "https://$HOST:$p/mcp" 10 10 50 &
    local b=$!
    wait "$a" "$b" || true
    cat "$RUN/tls-py.keys" "$RUN/tls-ts.keys" >"$CAP/$GROUP-$n.keys"; chmod 644 "$CAP/$GROUP-$n.keys"
    end "$n"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap" "$CAP/$GROUP-$n.keys"
}
scenario_rotate() {
    local n=rotate p=20811 a b
    DESCRIBE=("$PY" "$ECO/sensor3/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" node "$W/ts_server.mjs" "$p"
    begin "$n" "$p" 65536 -C 1 -G 2 --stats-interval 2
    pyload "$n-py1" "http://$HOST:$p/mcp" 10 10 50 &
    a=$!
    tsload "$n-ts1" "http://$HOST:$p/mcp" 10 10 50 stale &
    b=$!
    sleep 0.5
    # as dist/mcptap.logrotate: the report renamed, then SIGHUP (the -w file is not renamed)
    mv "$RUN/live-$n.csv" "$RUN/live-$n.csv.0"
    kill -HUP "$SENSOR_PID"; echo "   SIGHUP at $(date +%s.%N)" | tee "$RUN/$n-sighup.txt"
    wait "$a" "$b" || true
    sleep 2.5
    pyload "$n-py2" "http://$HOST:$p/mcp" 10 10 50 &
    a=$!
    tsload "$n-ts2" "http://$HOST:$p/mcp" 10 10 50 stale &
    b=$!
    wait "$a" "$b" || true
    end "$n"
    ls -l "$RUN"/live-$n.pcap* | sed 's/^/   /'
    local files
    files=$(ls "$RUN"/live-$n.pcap* | sort -V | paste -sd,)
    compare "$n" "$RUN/live-$n.csv.0,$RUN/live-$n.csv" "$files"
}
scenario_quiet() {
    local n=quiet p=20812 rc=0
    DESCRIBE=("$PY" "$ECO/sensor3/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" node "$W/ts_server.mjs" "$p" json
    begin "$n" "$p" 65536 --stats-interval 5
    timeout 150 "$PY" "$W/quiet.py" "http://$HOST:$p/mcp" 70 >"$RUN/$n-client.log" 2>"$RUN/$n-client.err" || rc=$?
    echo "   quiet client (exit $rc): $(tail -2 "$RUN/$n-client.log" | head -1)"
    end "$n"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap"
}
scenario_stats() {
    local n=stats p=20813 i
    DESCRIBE=("$PY" "$ECO/sensor3/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" node "$W/ts_server.mjs" "$p"
    begin "$n" "$p" 256 --stats-interval 1
    for i in 1 2 3; do
        echo "   wave $i at $(date +%s.%N)" | tee -a "$RUN/$n-waves.txt"
        tsload "$n-$i" "http://$HOST:$p/mcp" 15 15 50
        sleep 2
    done
    end "$n"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap"
}
scenario_latency() {
    local n=latency p=20814 w
    DESCRIBE=("$PY" "$ECO/sensor3/wire.py" - "$p"); free "$p"
    guard_start "$n"
    server "$n-server" "$p" node "$W/ts_server.mjs" "$p"
    rm -f "$RUN/$n-watch.stop"
    begin "$n" "$p" 65536 --stats-interval 1
    python3 "$W/watch.py" "$RUN/live-$n.csv" 120 "$RUN/$n-watch.stop" >"$RUN/$n-watch.log" &
    w=$!
    tsload "$n" "http://$HOST:$p/mcp" 20 5 100 stale
    end "$n"
    touch "$RUN/$n-watch.stop"; wait "$w" || true
    python3 "$W/latency.py" "$RUN/$n-watch.log" "$RUN/live-$n.pcap" | tee "$RUN/latency.txt"
    compare "$n" "$RUN/live-$n.csv" "$RUN/live-$n.pcap"
}

ALL=(tls rotate quiet stats latency)

run_scenarios "tcpdump tshark ss node openssl" -- "$@"

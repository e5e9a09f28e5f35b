#!/usr/bin/env bash
# Regenerate every mcptap sample capture in samples/ from real MCP SDK traffic on 127.0.0.1.
#
#   sudo bash samples/gen/capture_all.sh            # all captures
#   sudo bash samples/gen/capture_all.sh downgrade  # only the named capture(s) (file name without extension)
#
# Needs root (tcpdump/dumpcap on lo and "any"), python3 (>= 3.11), node + npm, tcpdump, dumpcap (tshark package).
# Installs the pinned SDKs locally: samples/gen/.venv (requirements.txt) and samples/gen/ts/node_modules
# (package-lock.json). All traffic stays on 127.0.0.1; every client run is bounded (fixed calls, timeouts).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST=127.0.0.1

# ---------------------------------------------------------------- setup
if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
if [ ! -d "$TS/node_modules/@modelcontextprotocol/sdk" ]; then
    (cd "$TS" && npm ci --silent)
fi
for tool in tcpdump dumpcap; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y tcpdump tshark)" >&2; exit 1; }
done

# ---------------------------------------------------------------- helpers
SERVER_PID=""
CAP_PID=""
cleanup() {
    [ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null || true
}
trap cleanup EXIT

# capture FILE PORT FORMAT SERVER-CMD -- CLIENT-CMD
#   FORMAT: lo (tcpdump -i lo, LINKTYPE_ETHERNET), any (tcpdump -i any -y LINUX_SLL: LINKTYPE_LINUX_SLL 113),
#           any-sll2 (tcpdump -i any -y LINUX_SLL2: LINKTYPE_LINUX_SLL2 276, tcpdump 4.99's default for -i any),
#           nano (tcpdump -i lo, nanosecond pcap), pcapng (dumpcap -i lo).
# The server is started first and waited for, so the capture holds no connection-refused noise;
# then the capture starts, the client runs, and 1 s later the capture is stopped with SIGINT.
capture() {
    local file=$1 port=$2 format=$3; shift 3
    local server=() client=()
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    local filter="tcp port $port" caplog
    caplog="$(mktemp)"
    echo "== $file (port $port, $format)"

    "${server[@]}" >"$caplog.server" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"

    rm -f "$OUT/$file"
    case "$format" in
        lo)       tcpdump -i lo  -s 0 -U -Z root -w "$OUT/$file" "$filter" 2>"$caplog" & ;;
        nano)     tcpdump -i lo  -s 0 -U -Z root --time-stamp-precision=nano -w "$OUT/$file" "$filter" 2>"$caplog" & ;;
        any)      tcpdump -i any -y LINUX_SLL -s 0 -U -Z root -w "$OUT/$file" "$filter" 2>"$caplog" & ;;
        any-sll2) tcpdump -i any -y LINUX_SLL2 -s 0 -U -Z root -w "$OUT/$file" "$filter" 2>"$caplog" & ;;
        pcapng)   dumpcap -i lo -f "$filter" -w "$OUT/$file" 2>"$caplog" & ;;
        *) echo "unknown format $format" >&2; exit 1 ;;
    esac
    CAP_PID=$!
    wait_capturing "$caplog"

    local rc=0
    timeout 60 "${client[@]}" >"$caplog.client" 2>&1 || rc=$?
    sed 's/^/   client: /' "$caplog.client"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$file"); }
    sleep 1

    kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    grep -E 'packets captured|dropped by kernel|Packets captured' "$caplog" | sed 's/^/   /' || true
    chmod 644 "$OUT/$file"
    rm -f "$caplog" "$caplog.server" "$caplog.client"
}

FAILED=()

url() { echo "http://$HOST:$1/mcp"; }
py_server() { echo "$PY" "$GEN/py/mcp_sample.py" server --port "$@"; }
py_client() { echo "$PY" "$GEN/py/mcp_sample.py" client --url "$(url "$1")"; }
ts_server() { echo node "$TS/server.mjs" "$1"; }
ts_client() { echo node "$TS/client.mjs" "$(url "$1")"; }

# ---------------------------------------------------------------- scenarios
# Expected kind of each POST reply (initialize, notifications/initialized, tools/list, 4 x tools/call):
CLEAN_JSON="json 202 json json json json json"
CLEAN_SSE_IDS="sse-ids 202 sse-ids sse-ids sse-ids sse-ids sse-ids"
CLEAN_SSE="sse 202 sse sse sse sse sse"
DOWNGRADE="json 202 json json sse sse sse"         # gateway rewrites the first 3 replies to JSON
SHIFT="json 202 json json sse-ids sse-ids sse-ids"

run_scenario() {
    case "$1" in
    # name             file                            port  capture  server (+ options)                            client
    json-clean)          capture json-clean.pcap          18101 lo       $(py_server 18101 --json)                     -- $(py_client 18101)
                         check json-clean.pcap "$CLEAN_JSON" ;;
    sse-ids-clean)       capture sse-ids-clean.pcap       18102 lo       $(py_server 18102 --event-store)              -- $(py_client 18102)
                         check sse-ids-clean.pcap "$CLEAN_SSE_IDS" ;;
    sse-noids-clean)     capture sse-noids-clean.pcap     18103 lo       $(ts_server 18103)                            -- $(ts_client 18103)
                         check sse-noids-clean.pcap "$CLEAN_SSE" ;;
    downgrade)           capture downgrade.pcap           18104 lo       $(py_server 18104 --json-first 3)             -- $(py_client 18104)
                         check downgrade.pcap "$DOWNGRADE" ;;
    mixed-shift)         capture mixed-shift.pcap         18105 lo       $(py_server 18105 --json-first 3 --event-store) -- $(py_client 18105)
                         check mixed-shift.pcap "$SHIFT" ;;
    downgrade-sll)       capture downgrade-sll.pcap       18106 any      $(py_server 18106 --json-first 3)             -- $(py_client 18106)
                         check downgrade-sll.pcap "$DOWNGRADE" ;;
    downgrade-sll2)      capture downgrade-sll2.pcap      18107 any-sll2 $(py_server 18107 --json-first 3)             -- $(py_client 18107)
                         check downgrade-sll2.pcap "$DOWNGRADE" ;;
    downgrade-pcapng)    capture downgrade.pcapng         18108 pcapng   $(py_server 18108 --json-first 3)             -- $(py_client 18108)
                         check downgrade.pcapng "$DOWNGRADE" ;;
    downgrade-nsec)      capture downgrade-nsec.pcap      18109 nano     $(py_server 18109 --json-first 3)             -- $(py_client 18109)
                         check downgrade-nsec.pcap "$DOWNGRADE" ;;
    ts-client-downgrade) capture ts-client-downgrade.pcap 18110 lo       $(py_server 18110 --json-first 3)             -- $(ts_client 18110)
                         check ts-client-downgrade.pcap "$DOWNGRADE" ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(json-clean sse-ids-clean sse-noids-clean downgrade mixed-shift downgrade-sll downgrade-sll2
     downgrade-pcapng downgrade-nsec ts-client-downgrade)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
ls -l "$OUT"/*.pcap "$OUT"/*.pcapng 2>/dev/null || true
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

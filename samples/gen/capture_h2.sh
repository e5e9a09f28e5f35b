#!/usr/bin/env bash
# Regenerate the HTTP/2 sample captures (samples/h2c-*.pcap, samples/tls-13-h2-*.pcap + .keys): the official
# Python SDK's ASGI app served by hypercorn, the SDK client over httpx2 with http2=True (py/h2_sample.py), and
# curl for the hand-driven `Upgrade: h2c`. Ports 18501-18599 on 127.0.0.1.
#
#   sudo bash samples/gen/capture_h2.sh              # all HTTP/2 captures
#   sudo bash samples/gen/capture_h2.sh h2c-downgrade  # one scenario (names: see run_scenario)
#
# Needs what capture_all.sh needs (it creates samples/gen/.venv) plus openssl, editcap and curl (with nghttp2);
# installs requirements-h2.txt into the venv. Every client run is bounded (fixed calls, timeouts).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST=127.0.0.1
[ -x "$PY" ] || { echo "run capture_all.sh once first (it creates $GEN/.venv)" >&2; exit 1; }
"$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements-h2.txt"
for tool in tcpdump openssl editcap curl; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

WORK="$(mktemp -d)"
SERVER_PID=""
CAP_PID=""
cleanup() {
    [ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

FAILED=()
H2="$GEN/py/h2_sample.py"

# capture NAME PORT SERVER-OPTIONS... -- CLIENT-CMD...: hypercorn on PORT, tcpdump on lo, the client, stop.
capture() {
    local name=$1 port=$2; shift 2
    local server=() client=()
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    echo "== $name.pcap (port $port)"
    rm -f "$OUT/$name.pcap"
    "$PY" "$H2" server --port "$port" "${server[@]}" >"$WORK/$name.server" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"
    tcpdump -i lo -s 0 -U -Z root -w "$OUT/$name.pcap" "tcp port $port" 2>"$WORK/$name.log" &
    CAP_PID=$!
    wait_capturing "$WORK/$name.log"
    local rc=0
    timeout 60 "${client[@]}" >"$WORK/$name.client" 2>&1 || rc=$?
    sed 's/^/   client: /' "$WORK/$name.client"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$name"); }
    sleep 1
    kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    chmod 644 "$OUT/$name.pcap"
}

h2c() { echo "$PY" "$H2" client --url "http://$HOST:$1/mcp"; }
h2tls() { echo "$PY" "$H2" client --url "https://$HOST:$1/mcp" --ca "$WORK/cert.pem" --keylog "$OUT/$2.keys"; }
TLS=(--tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem")

# A hand-driven `Upgrade: h2c` (RFC 7540 §3.2) with curl: initialize and notifications/initialized over
# HTTP/1.1 (hypercorn upgrades only requests without a body), then the session's GET stream with
# `curl --http2` on an http:// URL: 101, and the text/event-stream reply comes on HTTP/2 stream 1. curl gives
# up on the stream after 2 s (exit 28, expected).
curl_upgrade() {
    local url="http://$HOST:$1/mcp" sid
    local h=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
    sid="$(timeout 20 curl -sS --http1.1 -D - -o /dev/null "${h[@]}" \
        --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"7.88.1"}}}' \
        "$url" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')"
    [ -n "$sid" ] || { echo "no session id" >&2; return 1; }
    timeout 20 curl -sS --http1.1 -o /dev/null "${h[@]}" -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
        --data '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$url"
    local rc=0
    timeout 20 curl -sS --http2 --max-time 2 -o /dev/null -w '%{http_version} %{http_code}\n' \
        -H 'Accept: text/event-stream' -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' "$url" || rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 28 ]
}

run_scenario() {
    case "$1" in
    h2c-json-clean)      capture h2c-json-clean      18501 --json                -- $(h2c 18501) ;;
    h2c-sse-ids-clean)   capture h2c-sse-ids-clean   18502 --event-store         -- $(h2c 18502) ;;
    h2c-sse-noids-clean) capture h2c-sse-noids-clean 18503                       -- $(h2c 18503) ;;
    h2c-downgrade)       capture h2c-downgrade       18504 --json-first 3        -- $(h2c 18504) ;;
    h2c-reset)           capture h2c-reset           18505                       -- $(h2c 18505) --reset ;;
    tls-13-h2-downgrade) rm -f "$OUT/tls-13-h2-downgrade.keys"
                         capture tls-13-h2-downgrade 18506 --json-first 3 "${TLS[@]}" -- $(h2tls 18506 tls-13-h2-downgrade)
                         chmod 644 "$OUT/tls-13-h2-downgrade.keys" ;;
    tls-13-h2-sse-ids)   rm -f "$OUT/tls-13-h2-sse-ids.keys"
                         capture tls-13-h2-sse-ids   18507 --event-store "${TLS[@]}" -- $(h2tls 18507 tls-13-h2-sse-ids)
                         chmod 644 "$OUT/tls-13-h2-sse-ids.keys" ;;
    h2c-upgrade)         capture h2c-upgrade         18508 --json                -- bash -c "HOST=$HOST; $(declare -f curl_upgrade); curl_upgrade 18508" ;;
    h2c-midstream)
        # The h2c-sse-ids-clean capture without its first 20 packets (handshake, preface, initialize): a
        # connection picked up midstream, whose HPACK tables cannot be known.
        editcap -r "$OUT/h2c-sse-ids-clean.pcap" "$OUT/h2c-midstream.pcap" 21-1000000
        chmod 644 "$OUT/h2c-midstream.pcap" ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(h2c-json-clean h2c-sse-ids-clean h2c-sse-noids-clean h2c-downgrade h2c-reset tls-13-h2-downgrade
     tls-13-h2-sse-ids h2c-upgrade h2c-midstream)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

#!/usr/bin/env bash
# Regenerate the HTTP/2 sample captures (samples/h2c-*.pcap, samples/tls-13-h2-*.pcap + .keys): the official
# Python SDK's ASGI app served by hypercorn (py/h2_sample.py), reached by
#   - the SDK client over httpx2 with http2=True (py/h2_sample.py client), h2c or h2 over TLS;
#   - curl for the hand-driven `Upgrade: h2c`;
#   - nginx 1.22 (Debian's /usr/sbin/nginx, `listen ... ssl http2`) terminating TLS in front of hypercorn
#     (HTTP/1.1 cleartext upstream), the SDK client over httpx2 as above (tls-13-h2-nginx-*; only the
#     client <-> nginx port is captured);
#   - the TypeScript SDK client over Node's undici with allowH2 (ts/undici-h2-client.mjs; tls-13-h2-undici-*).
# Ports 18501-18699 on 127.0.0.1 only.
#
#   sudo bash samples/gen/capture_h2.sh              # all HTTP/2 captures
#   sudo bash samples/gen/capture_h2.sh h2c-downgrade  # one scenario (names: see run_scenario)
#
# Needs what capture_all.sh needs (it creates samples/gen/.venv and ts/node_modules) plus openssl, editcap,
# curl (with nghttp2) and nginx (`apt-get install -y nginx`, run as our own process with a config in a temp
# dir); installs requirements-h2.txt into the venv, and runs `npm ci` in ts/ if undici is missing. Every
# client run is bounded (fixed calls, timeouts).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST=127.0.0.1
[ -x "$PY" ] || { echo "run capture_all.sh once first (it creates $GEN/.venv)" >&2; exit 1; }
"$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements-h2.txt"
for tool in tcpdump openssl editcap curl nginx node; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

[ -d "$TS/node_modules/undici" ] || (cd "$TS" && npm ci --no-audit --no-fund)

WORK="$(mktemp -d)"
SERVER_PID=""
CAP_PID=""
NGINX_PID=""
cleanup() {
    [ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null || true
    [ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

FAILED=()
H2="$GEN/py/h2_sample.py"

# nginx_start PORT BACKEND on|off: nginx (our own process, config and prefix in $WORK) on HOST:PORT, TLS 1.3
# with ALPN h2 (`listen ... ssl http2`), proxying to hypercorn on HOST:BACKEND over HTTP/1.1 without buffering
# (so SSE flows); gzip on|off for JSON and SSE replies.
nginx_start() {
    local port=$1 backend=$2 gz=$3 dir="$WORK/nginx-$1"
    write_nginx_conf "$dir" "$port" "$backend" "$gz" "$WORK/cert.pem" "$WORK/key.pem"
    nginx -p "$dir" -c "$dir/nginx.conf" >"$dir/out.log" 2>&1 &
    NGINX_PID=$!
    wait_port "$port"
}

# capture NAME PORT [--nginx FRONT on|off] SERVER-OPTIONS... -- CLIENT-CMD...: hypercorn on PORT (with
# --nginx: nginx on FRONT in front of it, gzip on or off), tcpdump on lo (the client-facing port only), the
# client, stop.
capture() {
    local name=$1 port=$2; shift 2
    local front=$port gz=""
    if [ "$1" = "--nginx" ]; then front=$2; gz=$3; shift 3; fi
    local server=() client=()
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    echo "== $name.pcap (port $front)"
    rm -f "$OUT/$name.pcap"
    "$PY" "$H2" server --port "$port" "${server[@]}" >"$WORK/$name.server" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"
    [ -z "$gz" ] || nginx_start "$front" "$port" "$gz"
    tcpdump -i lo -s 0 -U -Z root -w "$OUT/$name.pcap" "tcp port $front" 2>"$WORK/$name.log" &
    CAP_PID=$!
    wait_capturing "$WORK/$name.log"
    local rc=0
    timeout 60 "${client[@]}" >"$WORK/$name.client" 2>&1 || rc=$?
    sed 's/^/   client: /' "$WORK/$name.client"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$name"); }
    sleep 1
    kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
    if [ -n "$NGINX_PID" ]; then
        kill -TERM "$NGINX_PID"; wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=""
    fi
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    chmod 644 "$OUT/$name.pcap"
}

# keyed NAME ...: capture NAME ... whose client writes the TLS key log $OUT/NAME.keys (started afresh).
keyed() {
    rm -f "$OUT/$1.keys"
    capture "$@"
    chmod 644 "$OUT/$1.keys"
}

h2c() { echo "$PY" "$H2" client --url "http://$HOST:$1/mcp"; }
h2tls() { echo "$PY" "$H2" client --url "https://$HOST:$1/mcp" --ca "$WORK/cert.pem" --keylog "$OUT/$2.keys"; }
undici() { echo node "$TS/undici-h2-client.mjs" "https://$HOST:$1/mcp" "$WORK/cert.pem" "$OUT/$2.keys"; }
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
    # nginx in front (TLS, h2 to the client; hypercorn behind it on 186[5]x over HTTP/1.1 cleartext).
    tls-13-h2-nginx-json-clean)
        keyed tls-13-h2-nginx-json-clean     18651 --nginx 18601 off --json         -- $(h2tls 18601 tls-13-h2-nginx-json-clean) ;;
    tls-13-h2-nginx-sse-ids-clean)
        keyed tls-13-h2-nginx-sse-ids-clean  18652 --nginx 18602 off --event-store  -- $(h2tls 18602 tls-13-h2-nginx-sse-ids-clean) ;;
    tls-13-h2-nginx-downgrade)
        keyed tls-13-h2-nginx-downgrade      18653 --nginx 18603 off --json-first 3 -- $(h2tls 18603 tls-13-h2-nginx-downgrade) ;;
    tls-13-h2-nginx-gzip-downgrade)
        keyed tls-13-h2-nginx-gzip-downgrade 18654 --nginx 18604 on  --json-first 3 -- $(h2tls 18604 tls-13-h2-nginx-gzip-downgrade) ;;
    # The TypeScript SDK client over undici (allowH2) against hypercorn's h2 over TLS.
    tls-13-h2-undici-sse-ids-clean)
        keyed tls-13-h2-undici-sse-ids-clean 18611 --event-store "${TLS[@]}"  -- $(undici 18611 tls-13-h2-undici-sse-ids-clean) ;;
    tls-13-h2-undici-downgrade)
        keyed tls-13-h2-undici-downgrade     18612 --json-first 3 "${TLS[@]}" -- $(undici 18612 tls-13-h2-undici-downgrade) ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(h2c-json-clean h2c-sse-ids-clean h2c-sse-noids-clean h2c-downgrade h2c-reset tls-13-h2-downgrade
     tls-13-h2-sse-ids h2c-upgrade h2c-midstream tls-13-h2-nginx-json-clean tls-13-h2-nginx-sse-ids-clean
     tls-13-h2-nginx-downgrade tls-13-h2-nginx-gzip-downgrade tls-13-h2-undici-sse-ids-clean
     tls-13-h2-undici-downgrade)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

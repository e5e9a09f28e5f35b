#!/usr/bin/env bash
# Regenerate the TLS sample captures (samples/tls-*.pcap, *.pcapng) and their key logs (samples/tls-*.keys):
# the official MCP SDKs over HTTPS on 127.0.0.1 with a self-signed certificate made here by openssl.
#
#   sudo bash samples/gen/capture_tls.sh             # all TLS captures
#   sudo bash samples/gen/capture_tls.sh tls13-aes128  # one scenario (names: see run_scenario)
#
# Needs what capture_all.sh needs (it sets up samples/gen/.venv and ts/node_modules) plus openssl and editcap.
# The Python server (uvicorn) writes the key log (SSLContext.keylog_filename); the TLS version and TLS 1.2
# cipher are pinned on the server, TLS 1.3 suites with an OpenSSL config (OPENSSL_CONF). All traffic stays on
# 127.0.0.1; every client run is bounded (fixed calls, timeouts).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST=127.0.0.1
[ -x "$PY" ] || { echo "run capture_all.sh once first (it creates $GEN/.venv)" >&2; exit 1; }
for tool in tcpdump openssl editcap; do
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

# Self-signed certificate for 127.0.0.1 (RSA: ECDHE-RSA suites for TLS 1.2).
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

# OpenSSL config pinning the TLS 1.3 suite: openssl_conf FILE SUITE
openssl_conf() {
    cat >"$1" <<CONF
openssl_conf = openssl_init
[openssl_init]
ssl_conf = ssl_sect
[ssl_sect]
system_default = system_default_sect
[system_default_sect]
Ciphersuites = $2
CONF
}

# capture NAME PORT SUITE13 TLSMAX CIPHERS12 SERVER-OPTS... -- CLIENT-CMD...
capture() {
    local name=$1 port=$2 suite=$3 tlsmax=$4 ciphers=$5; shift 5
    local sopts=() client=()
    while [ "$1" != "--" ]; do sopts+=("$1"); shift; done
    shift
    client=("$@")
    local keys="$OUT/$name.keys" conf="$WORK/$name.cnf" caplog="$WORK/$name.log"
    echo "== $name.pcap (port $port)"
    rm -f "$keys" "$OUT/$name.pcap"
    openssl_conf "$conf" "$suite"
    local extra=()
    [ -n "$ciphers" ] && extra+=(--tls-ciphers "$ciphers")
    OPENSSL_CONF="$conf" "$PY" "$GEN/py/mcp_sample.py" server --port "$port" "${sopts[@]}" \
        --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" --tls-max "$tlsmax" --keylog "$keys" "${extra[@]}" \
        >"$caplog.server" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"
    tcpdump -i lo -s 0 -U -Z root -w "$OUT/$name.pcap" "tcp port $port" 2>"$caplog" &
    CAP_PID=$!
    wait_capturing "$caplog"
    local rc=0
    SSL_CERT_FILE="$WORK/cert.pem" NODE_EXTRA_CA_CERTS="$WORK/cert.pem" timeout 60 "${client[@]}" >"$caplog.client" 2>&1 || rc=$?
    sed 's/^/   client: /' "$caplog.client"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$name"); }
    sleep 1
    kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    grep -E 'packets captured' "$caplog" | sed 's/^/   /' || true
    chmod 644 "$OUT/$name.pcap" "$keys"
}

url() { echo "https://$HOST:$1/mcp"; }
py_client() { echo "$PY" "$GEN/py/mcp_sample.py" client --url "$(url "$1")"; }
ts_client() { echo node "$TS/client.mjs" "$(url "$1")"; }
FAILED=()

A128=TLS_AES_128_GCM_SHA256
A256=TLS_AES_256_GCM_SHA384
CHACHA=TLS_CHACHA20_POLY1305_SHA256
run_scenario() {
    case "$1" in
    # name                              port  1.3 suite max  1.2 cipher                      server opts          client
    tls13-aes128)  capture tls-13-aes128-downgrade 18401 $A128   1.3 ""                              --json-first 3 -- $(py_client 18401) ;;
    tls13-aes256)  capture tls-13-aes256-json      18402 $A256   1.3 ""                              --json         -- $(py_client 18402) ;;
    tls13-chacha)  capture tls-13-chacha-sse-ids   18403 $CHACHA 1.3 ""                              --event-store  -- $(py_client 18403) ;;
    tls12-aes128)  capture tls-12-aes128-downgrade 18404 $A128   1.2 ECDHE-RSA-AES128-GCM-SHA256     --json-first 3 -- $(py_client 18404) ;;
    tls12-aes256)  capture tls-12-aes256-json      18405 $A128   1.2 ECDHE-RSA-AES256-GCM-SHA384     --json         -- $(py_client 18405) ;;
    tls12-chacha)  capture tls-12-chacha-sse-ids   18406 $A128   1.2 ECDHE-RSA-CHACHA20-POLY1305     --event-store  -- $(py_client 18406) ;;
    tls13-ts)      capture tls-13-ts-downgrade     18407 $A128   1.3 ""                              --json-first 3 -- $(ts_client 18407) ;;
    tls12-ts)      capture tls-12-ts-downgrade     18408 $A128   1.2 ECDHE-RSA-AES128-GCM-SHA256     --json-first 3 -- $(ts_client 18408) ;;
    tls13-keyupdate) capture tls-13-keyupdate      18410 $A128   1.3 ""                              --json         -- "$PY" "$GEN/py/keyupdate_client.py" 18410 ;;
    h2)
        # HTTP/2 over TLS 1.3 (Node's http2 module on both sides; the server's keylog event writes the key
        # log): one JSON exchange over h2, analysed like HTTP/1.1 (see also capture_h2.sh).
        echo "== tls-13-h2.pcap (port 18409)"
        rm -f "$OUT/tls-13-h2.keys" "$OUT/tls-13-h2.pcap"
        node "$TS/h2.mjs" server 18409 "$WORK/cert.pem" "$WORK/key.pem" "$OUT/tls-13-h2.keys" >"$WORK/h2.server" 2>&1 &
        SERVER_PID=$!
        wait_port 18409
        tcpdump -i lo -s 0 -U -Z root -w "$OUT/tls-13-h2.pcap" "tcp port 18409" 2>"$WORK/h2.log" &
        CAP_PID=$!
        wait_capturing "$WORK/h2.log"
        timeout 20 node "$TS/h2.mjs" client 18409 || FAILED+=(tls-13-h2)
        sleep 1
        kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
        kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
        chmod 644 "$OUT/tls-13-h2.pcap" "$OUT/tls-13-h2.keys" ;;
    derived)
        # The same capture without its key log, with the key log of other connections, and with the
        # secrets injected into a pcapng Decryption Secrets Block (no .keys beside it).
        cp "$OUT/tls-13-aes128-downgrade.pcap" "$OUT/tls-13-aes128-downgrade-nokeys.pcap"
        cp "$OUT/tls-13-aes128-downgrade.pcap" "$OUT/tls-13-aes128-downgrade-otherkeys.pcap"
        cp "$OUT/tls-12-aes128-downgrade.keys" "$OUT/tls-13-aes128-downgrade-otherkeys.keys"
        editcap --inject-secrets "tls,$OUT/tls-13-aes128-downgrade.keys" -F pcapng \
            "$OUT/tls-13-aes128-downgrade.pcap" "$OUT/tls-13-aes128-downgrade-dsb.pcapng"
        chmod 644 "$OUT"/tls-13-aes128-downgrade-*.p* "$OUT/tls-13-aes128-downgrade-otherkeys.keys" ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(tls13-aes128 tls13-aes256 tls13-chacha tls12-aes128 tls12-aes256 tls12-chacha tls13-ts tls12-ts tls13-keyupdate h2 derived)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

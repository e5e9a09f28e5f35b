#!/usr/bin/env bash
# mcptap ecosystem corpus, group "tls2": MCP over TLS from real stacks in the TLS variants the corpus lacked, each
# capture with the client's key log beside it (samples/ecosystem/tls2-<scenario>.keys, only that capture's TLS
# sessions): `mcptap -r tls2-X.pcap --keylog tls2-X.keys`. Loopback only (127.0.0.1, ports 20470-20489):
#   uvicorn-tls12-aes128gcm  port 20470: Python SDK client -> Python SDK server under uvicorn --ssl-keyfile/--ssl-certfile,
#                            --ssl-version 5 (PROTOCOL_TLSv1_2) --ssl-ciphers ECDHE-RSA-AES128-GCM-SHA256
#   nginx-tls12-chacha       ports 20471 (nginx, TLS 1.2 only, ssl_ciphers ECDHE-RSA-CHACHA20-POLY1305) -> 20472
#                            (Python SDK server under uvicorn, plain): TS SDK client (node --tls-keylog); both hops
#   nginx-tls12-cbc          ports 20473 (nginx, TLS 1.2 only, ssl_ciphers ECDHE-RSA-AES128-SHA: AES-CBC + HMAC-SHA1)
#                            -> 20474: TS SDK client; both hops
#   node-tls13-chacha        port 20475: Python SDK client -> TS SDK server (express) behind node:https with ciphers
#                            TLS_CHACHA20_POLY1305_SHA256, minVersion TLSv1.3
#   uvicorn-tls13-resume     port 20476: TS SDK client, two sessions one after the other (undici's TLS session cache:
#                            later connections resume with a TLS 1.3 ticket) -> Python SDK server under uvicorn TLS
#   nginx-hrr                ports 20477 (nginx, TLS 1.2-1.3, ssl_ecdh_curve secp384r1: the client's first key share,
#                            X25519, is refused with a HelloRetryRequest) -> 20478: Python SDK client; both hops
#   nginx-clientcert         ports 20479 (nginx, TLS 1.2-1.3, ssl_verify_client on) -> 20480: Python SDK client with a
#                            client certificate (load_cert_chain); both hops
#   uvicorn-keylog-gap       port 20481: Python SDK client -> Python SDK server under uvicorn TLS 1.3; the key log
#                            committed lacks the lines of one connection (the one that carried tools/call echo)
#   uvicorn-tls13-restart    port 20482: TS SDK client -> Python SDK server under uvicorn TLS 1.3: add, 6 s pause in
#                            which the server is stopped and started again (new process: its sessions and its TLS
#                            ticket keys are gone), add three times more, DELETE
#
#   sudo bash samples/gen/ecosystem/tls2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/tls2.sh SCENARIO..  # some of them
#
# Listings samples/gen/wire/ecosystem/tls2-<scenario>.pcap.txt: tls2/wire.py (asgi2/wire.py read for TLS 1.2 too; the key log
# beside the capture). Needs root (tcpdump), tcpdump, tshark, ss, openssl (certificates in tls2/run/certs, never
# committed), nginx (Debian 12's 1.22.1, run as our own foreground process with the prefix tls2/run/NAME-nginx),
# node 20 + npm (tls2/node_modules from tls2/package-lock.json), and the sdks group's venv sdks/.venv (mcp 2.3.0,
# uvicorn 0.54.0: servers and the Python client). Every client run is bounded (timeout); a guard capture on every
# interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
# Results and labels: samples/ecosystem/tls2.md, samples/ecosystem/labels-tls2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/tls2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=tls2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production
SDKPY="$ECO/sdks/.venv/bin/python"
UVICORN="$ECO/sdks/.venv/bin/uvicorn"
CERTS="$RUN/certs"
CERT="$CERTS/cert.pem"; KEY="$CERTS/key.pem"               # server: self-signed RSA 2048, IP:127.0.0.1
CCERT="$CERTS/client.pem"; CKEY="$CERTS/client-key.pem"    # client certificate (self-signed; nginx trusts it)

setup() {
    setup_pysdk
    need_npm "$W"
    [ -s "$CERT" ] || { mkdir -p "$CERTS" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    [ -s "$CCERT" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=mcptap-tls2-client" \
        -addext "extendedKeyUsage=clientAuth" -keyout "$CKEY" -out "$CCERT" 2>/dev/null
}

# keys NAME: the key log of capture NAME, started afresh (it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
# the Python SDK server (../asgi2/asgi_app.py: the SDK's streamable_http_app, defaults) under uvicorn, extra args
uvicorn_cmd() { local port=$1; shift; echo env ASGI2_MODE=streamable "ASGI2_NAME=tls2-$port" "$UVICORN" --host "$HOST" --port "$port" --app-dir "$ECO/asgi2" --log-level warning "$@" asgi_app:app; }
py_client() { local name=$1 url=$2; shift 2; echo env "SSLKEYLOGFILE=$(keys "$name")" "$SDKPY" "$W/py_client.py" "$url" --ca "$CERT" "$@"; }
ts_client() { local name=$1 url=$2; shift 2; echo env -C "$W" "NODE_EXTRA_CA_CERTS=$CERT" node "--tls-keylog=$(keys "$name")" ts_client.mjs "$url" "$@"; }

# nginx_conf NAME PORT BACKEND TLS-LINES: render nginx.conf.in into run/NAME-nginx/, print its path.
nginx_conf() {
    local d="$RUN/$1-nginx"
    mkdir -p "$d/tmp"
    TLS="$4" PORT=$2 BACKEND=$3 python3 - "$W/nginx.conf.in" "$d/nginx.conf" "$CERT" "$KEY" <<'PY'
import os, sys
t = open(sys.argv[1]).read()
for k, v in (("@TLS@", os.environ["TLS"]), ("@PORT@", os.environ["PORT"]), ("@BACKEND@", os.environ["BACKEND"]),
             ("@CERT@", sys.argv[3]), ("@KEY@", sys.argv[4])):
    t = t.replace(k, v)
open(sys.argv[2], "w").write(t)
PY
    echo "$d"
}

# direct NAME PORT "SERVER-CMD" -- CLIENT-CMD...: guard on, the server up on PORT, capture of PORT, one bounded client
# run, capture stop and listing, everything down, guard off.
direct() {
    local name=$1 port=$2 srv=$3
    shift 3; [ "${1:-}" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    # shellcheck disable=SC2086
    server "$name-server" "$port" $srv
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    chmod 644 "$CAP/$GROUP-$name.keys"
}

# fronted NAME FRONT BACKEND TLS-LINES -- CLIENT-CMD...: the Python SDK server (plain) up on BACKEND and nginx (TLS on
# FRONT) before the capture, both hops captured, one bounded client run, down, guard off.
fronted() {
    local name=$1 front=$2 backend=$3 tls=$4 d
    shift 4; [ "${1:-}" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$backend")
    free "$front" "$backend"
    d="$(nginx_conf "$name" "$front" "$backend" "$tls")"
    guard_start "$name"
    # shellcheck disable=SC2046
    server "$name-server" "$backend" $(uvicorn_cmd "$backend")
    server "$name-nginx" "$front" nginx -p "$d/" -c "$d/nginx.conf" -e error.log
    capture_start "$name" "$front" "$backend"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    chmod 644 "$CAP/$GROUP-$name.keys"
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046
scenario_uvicorn-tls12-aes128gcm() {
    direct uvicorn-tls12-aes128gcm 20470 "$(uvicorn_cmd 20470 --ssl-keyfile "$KEY" --ssl-certfile "$CERT" --ssl-version 5 --ssl-ciphers ECDHE-RSA-AES128-GCM-SHA256)" \
        -- $(py_client uvicorn-tls12-aes128gcm "https://$HOST:20470/mcp")
}
# shellcheck disable=SC2046
scenario_nginx-tls12-chacha() {
    fronted nginx-tls12-chacha 20471 20472 "        ssl_protocols TLSv1.2;
        ssl_ciphers ECDHE-RSA-CHACHA20-POLY1305;" -- $(ts_client nginx-tls12-chacha "https://$HOST:20471/mcp")
}
# shellcheck disable=SC2046
scenario_nginx-tls12-cbc() {
    fronted nginx-tls12-cbc 20473 20474 "        ssl_protocols TLSv1.2;
        ssl_ciphers ECDHE-RSA-AES128-SHA;" -- $(ts_client nginx-tls12-cbc "https://$HOST:20473/mcp")
}
# shellcheck disable=SC2046
scenario_node-tls13-chacha() {
    direct node-tls13-chacha 20475 "env -C $W node ts-https-server.mjs 20475 $CERT $KEY TLS_CHACHA20_POLY1305_SHA256 TLSv1.3" \
        -- $(py_client node-tls13-chacha "https://$HOST:20475/mcp")
}
# shellcheck disable=SC2046
scenario_uvicorn-tls13-resume() {
    direct uvicorn-tls13-resume 20476 "$(uvicorn_cmd 20476 --ssl-keyfile "$KEY" --ssl-certfile "$CERT")" \
        -- $(ts_client uvicorn-tls13-resume "https://$HOST:20476/mcp" 2)
}
# shellcheck disable=SC2046
scenario_nginx-hrr() {
    fronted nginx-hrr 20477 20478 "        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_ecdh_curve secp384r1;" -- $(py_client nginx-hrr "https://$HOST:20477/mcp")
}
# shellcheck disable=SC2046
scenario_nginx-clientcert() {
    fronted nginx-clientcert 20479 20480 "        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_client_certificate $CCERT;
        ssl_verify_client on;" -- $(py_client nginx-clientcert "https://$HOST:20479/mcp" --cert "$CCERT" --key "$CKEY")
}
# The key log as the client wrote it is kept in run/ (tls2-uvicorn-keylog-gap.full.keys); the committed one lacks every
# line of the client random of the connection whose decrypted bytes carry the tools/call of echo.
# shellcheck disable=SC2046
scenario_uvicorn-keylog-gap() {
    local name=uvicorn-keylog-gap k cap stream random
    direct "$name" 20481 "$(uvicorn_cmd 20481 --ssl-keyfile "$KEY" --ssl-certfile "$CERT")" \
        -- $(py_client "$name" "https://$HOST:20481/mcp")
    k="$CAP/$GROUP-$name.keys"; cap="$CAP/$GROUP-$name.pcap"
    cp "$k" "$RUN/$GROUP-$name.full.keys"
    stream=$(tshark -r "$cap" -o "tls.keylog_file:$k" -Y 'http.request.method == "POST" && http.file_data contains "\"echo\""' \
        -T fields -e tcp.stream | head -1)
    random=$(tshark -r "$cap" -Y "tcp.stream == $stream && tls.handshake.type == 1" -T fields -e tls.handshake.random | head -1 | tr -d ':')
    echo "   dropping the key-log lines of tcp stream $stream (client random $random)"
    grep -v -i "$random" "$RUN/$GROUP-$name.full.keys" >"$k"
    chmod 644 "$k"
    (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
}

# uvicorn-tls13-restart: the server on 20482, the TS client in the background (bounded); as soon as its log shows the
# first add's result the server is stopped (SIGINT) and started again (watched with ss, no probe on the wire).
scenario_uvicorn-tls13-restart() {
    local name=uvicorn-tls13-restart port=20482 cpid
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    free "$port"
    rm -f "$RUN/$name-client.log"
    guard_start "$name"
    # shellcheck disable=SC2046
    server "$name-server" "$port" $(uvicorn_cmd "$port" --ssl-keyfile "$KEY" --ssl-certfile "$CERT")
    capture_start "$name" "$port"
    # shellcheck disable=SC2046
    timeout 60 $(ts_client "$name" "https://$HOST:$port/mcp" restart) >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    local i
    for i in $(seq 1 300); do grep -qs 'add {"a":1' "$RUN/$name-client.log" && break; sleep 0.1; done
    stop "${PIDS[0]}" INT; PIDS=()
    free "$port"
    # shellcheck disable=SC2046
    bg "$name-server2" $(uvicorn_cmd "$port" --ssl-keyfile "$KEY" --ssl-certfile "$CERT")
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE 'tls-keylog makes|trace-warnings' "$RUN/$name-client.log" | cut -c1-150 | tail -14 | sed "s/^/   $name-client: /" || true
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    chmod 644 "$CAP/$GROUP-$name.keys"
}

ALL=(uvicorn-tls12-aes128gcm nginx-tls12-chacha nginx-tls12-cbc node-tls13-chacha uvicorn-tls13-resume nginx-hrr
     nginx-clientcert uvicorn-keylog-gap uvicorn-tls13-restart)

run_scenarios "tcpdump tshark ss openssl nginx node" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "asgi2": the official Python SDK server (mcp 2.3.0, the MCPServer of pysdk_tools.py:
# add, echo, slow_count with progress) hosted the ways people deploy ASGI apps (daphne, gunicorn with uvicorn
# workers, uvicorn with its h11 or httptools HTTP parser) and behind Debian's stunnel4 (TLS terminator) and privoxy
# (forward proxy). Fully offline (a guard capture of all other traffic checks it), captured on loopback (127.0.0.1,
# ports 19510-19523 of the group's 19510-19529 only).
#
#   sudo bash samples/gen/ecosystem/asgi2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/asgi2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/asgi2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt; the
# apps are asgi2/asgi_app.py's, the clients the relays group's relays/py_client.py (legacy mode: initialize, the
# standalone GET stream, tools/list, add, echo, slow_count(3) with progress, add, DELETE) and the egress group's
# egress/py_sse_client.py (HTTP+SSE), both the Python SDK 2.3.0 in the sdks group's venv):
#   daphne             19510: daphne 4.2.3, streamable_http_app with its defaults (SSE replies), app_no_lifespan (the
#                      session manager started on the first request: daphne runs no ASGI lifespan)
#   daphne-json        19511: the same with json_response=True
#   daphne-legacy      19512: sse_app (GET /sse, POST /messages/?session_id=) under daphne, egress/py_sse_client.py
#   daphne-no-lifespan 19513: the SDK's app as it is under daphne: no lifespan, so the session manager never starts
#   gunicorn-w1        19514: gunicorn 27.0.1 -k uvicorn_worker.UvicornWorker -w 1, streamable (SSE replies)
#   gunicorn-w2        19515: the same with -w 2: two worker processes, each with its own in-memory sessions, accepting
#                      from one listening socket
#   uvicorn-h11        19516: uvicorn 0.55.0 --http h11, streamable (SSE replies)
#   uvicorn-httptools  19517: uvicorn 0.55.0 --http httptools (httptools 0.9.0), streamable (SSE replies)
#   stunnel            19518 -> 19519: stunnel4 5.68 terminating TLS (self-signed certificate for 127.0.0.1 in
#                      asgi2/certs) in front of uvicorn (httptools) on 19519; the client over https with SSL_CERT_FILE
#                      and SSLKEYLOGFILE=samples/ecosystem/asgi2-stunnel.keys; both hops captured
#   privoxy-http       19520 -> 19521: privoxy 3.0.34 (Debian's config and action files, asgi2/privoxy.conf.in) as the
#                      client's forward proxy (HTTP_PROXY), uvicorn (httptools) on 19521, streamable (SSE replies)
#   privoxy-legacy     19520 -> 19522: the same proxy, sse_app on 19522, egress/py_sse_client.py
#   privoxy-connect    19520 -> 19523: HTTPS_PROXY through privoxy (CONNECT 127.0.0.1:19523, allowed by
#                      asgi2/privoxy-connect.action) to uvicorn over TLS on 19523; key log asgi2-privoxy-connect.keys
# Each client run is bounded (10 s per request, 30 s a run inside the clients, timeout 60 here).
# The server is up before its capture starts (its port probed then); a front (stunnel, privoxy) is started inside the
# capture and watched with `ss` (no probe), and stopped (SIGTERM) before the capture ends.
#
# Needs root (tcpdump), tcpdump, tshark (asgi2/wire.py, which imports egress/wire.py by path), ss, openssl, python3
# (3.11) with venv, and Debian's stunnel4 and privoxy (`apt-get install -y stunnel4 privoxy`; their postinst's start
# of the services is denied where policy-rc.d forbids it; both run here as foreground processes of this script with
# configs rendered into asgi2/run/, the system services and /etc are not touched). First use makes asgi2/.venv
# (asgi2/requirements.txt: mcp 2.3.0, daphne, gunicorn, uvicorn-worker, uvicorn, httptools), the sdks group's
# venv (the clients) and the certificate; all git-ignored (asgi2/.gitignore). Results and labels:
# samples/ecosystem/asgi2.md, samples/ecosystem/labels-asgi2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/asgi2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=asgi2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

V="$W/.venv/bin"
SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0 clients; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/relays/py_client.py")         # URL (.../mcp), legacy mode
PY_SSE_CLIENT=("$SDKPY" "$ECO/egress/py_sse_client.py") # URL (.../sse)
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"
PROXY_PORT=19520

setup() {
    need_venv "$W/.venv" "$W/requirements.txt" daphne
    setup_pysdk
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
}

# app MODE NAME: the environment asgi_app.py reads (streamable | json | sse; serverInfo name), the app's folder on
# the path.
app() { echo env "ASGI2_MODE=$1" "ASGI2_NAME=$2" "PYTHONPATH=$W"; }
daphne()   { local port=$1 mode=$2 attr=${3:-app_no_lifespan}; echo "$(app "$mode" "asgi2-daphne-$port") $V/daphne -b $HOST -p $port asgi_app:$attr"; }
gunicorn() { local port=$1 workers=$2; echo "$(app streamable "asgi2-gunicorn-$port") $V/gunicorn -k uvicorn_worker.UvicornWorker -w $workers -b $HOST:$port --chdir $W asgi_app:app"; }
uvicorn()  { local port=$1 mode=$2 http=$3; shift 3; echo "$(app "$mode" "asgi2-uvicorn-$port") $V/uvicorn --http $http --host $HOST --port $port --app-dir $W --log-level warning $* asgi_app:app"; }
noproxy() { echo env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY -u NO_PROXY; }
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }

# reap PID: after cleanup's SIGTERM, wait (max 5 s) for the process group started by bg to end, then SIGKILL it.
# daphne serving app_no_lifespan does not exit on SIGTERM (the session manager task it holds keeps it alive; seen
# when the captures were made, after each capture had ended): it is killed here.
reap() {
    local i
    for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# direct NAME PORT "SERVER-CMD" -- CLIENT-CMD...: lib.sh capture_run's steps (server NAME-server up on PORT, capture
# of that port, one bounded client run NAME-client, capture stop and listing, everything down, the server reaped)
# inside a guard capture.
direct() {
    local name=$1 port=$2 srv=$3 spid
    shift 3; [ "${1:-}" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    # shellcheck disable=SC2086
    server "$name-server" "$port" $srv
    spid=$LAST_PID
    capture_start "$name" "$port"
    run "$name-client" $(noproxy) "$@"
    capture_stop "$name"
    cleanup
    reap "$spid"
    sleep 1
    guard_stop "$name"
}

# fronted NAME FRONT BACKEND "SERVER-CMD" "FRONT-CMD" -- CLIENT-CMD...: the server up on BACKEND before the capture,
# the capture of FRONT and BACKEND, the front started inside it (watched with ss), one bounded client run, the front
# stopped (SIGTERM), capture stop and listing, everything down, inside a guard capture.
fronted() {
    local name=$1 front=$2 backend=$3 srv=$4 fcmd=$5 fpid spid
    shift 5; [ "${1:-}" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$backend")
    free "$front" "$backend"
    guard_start "$name"
    # shellcheck disable=SC2086
    server "$name-server" "$backend" $srv
    spid=$LAST_PID
    capture_start "$name" "$front" "$backend"
    # shellcheck disable=SC2086
    bg "$name-front" $fcmd
    fpid=$LAST_PID
    listening "$front"
    run "$name-client" "$@"
    sleep 0.5
    stop "$fpid"
    capture_stop "$name"
    cleanup
    reap "$spid"
    sleep 1
    guard_stop "$name"
    [ ! -f "$CAP/$GROUP-$name.keys" ] || chmod 644 "$CAP/$GROUP-$name.keys"
}

stunnel_conf() {
    sed -e "s|@RUN@|$RUN|g" -e "s|@PORT@|$1|g" -e "s|@BACKEND@|$2|g" -e "s|@CERT@|$CERT|g" -e "s|@KEY@|$KEY|g" \
        "$W/stunnel.conf.in" >"$RUN/stunnel.conf"
    echo "$RUN/stunnel.conf"
}
privoxy_conf() {
    mkdir -p "$RUN/privoxy"
    sed -e "s|@RUN@|$RUN/privoxy|g" -e "s|@PORT@|$PROXY_PORT|g" -e "s|@W@|$W|g" "$W/privoxy.conf.in" >"$RUN/privoxy/config"
    echo "$RUN/privoxy/config"
}
PROXIED_HTTP="env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTPS_PROXY -u ALL_PROXY -u NO_PROXY HTTP_PROXY=http://$HOST:$PROXY_PORT"
PROXIED_HTTPS="env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTP_PROXY -u ALL_PROXY -u NO_PROXY HTTPS_PROXY=http://$HOST:$PROXY_PORT"

# --------------------------------------------------------------------------------------------- scenarios
scenario_daphne()             { direct daphne 19510 "$(daphne 19510 streamable)" -- "${PY_CLIENT[@]}" "http://$HOST:19510/mcp"; }
scenario_daphne-json()        { direct daphne-json 19511 "$(daphne 19511 json)" -- "${PY_CLIENT[@]}" "http://$HOST:19511/mcp"; }
scenario_daphne-legacy()      { direct daphne-legacy 19512 "$(daphne 19512 sse)" -- "${PY_SSE_CLIENT[@]}" "http://$HOST:19512/sse"; }
scenario_daphne-no-lifespan() { direct daphne-no-lifespan 19513 "$(daphne 19513 streamable app)" -- "${PY_CLIENT[@]}" "http://$HOST:19513/mcp"; }
scenario_gunicorn-w1()        { direct gunicorn-w1 19514 "$(gunicorn 19514 1)" -- "${PY_CLIENT[@]}" "http://$HOST:19514/mcp"; }
scenario_gunicorn-w2()        { direct gunicorn-w2 19515 "$(gunicorn 19515 2)" -- "${PY_CLIENT[@]}" "http://$HOST:19515/mcp"; }
scenario_uvicorn-h11()        { direct uvicorn-h11 19516 "$(uvicorn 19516 streamable h11)" -- "${PY_CLIENT[@]}" "http://$HOST:19516/mcp"; }
scenario_uvicorn-httptools()  { direct uvicorn-httptools 19517 "$(uvicorn 19517 streamable httptools)" -- "${PY_CLIENT[@]}" "http://$HOST:19517/mcp"; }
scenario_stunnel() {
    local k; k="$(keys stunnel)"
    # shellcheck disable=SC2046
    fronted stunnel 19518 19519 "$(uvicorn 19519 streamable httptools)" "stunnel4 $(stunnel_conf 19518 19519)" -- \
        $(noproxy) "SSL_CERT_FILE=$CERT" "SSLKEYLOGFILE=$k" "${PY_CLIENT[@]}" "https://$HOST:19518/mcp"
}
scenario_privoxy-http() {
    # shellcheck disable=SC2086
    fronted privoxy-http $PROXY_PORT 19521 "$(uvicorn 19521 streamable httptools)" "privoxy --no-daemon $(privoxy_conf)" -- \
        $PROXIED_HTTP "${PY_CLIENT[@]}" "http://$HOST:19521/mcp"
}
scenario_privoxy-legacy() {
    # shellcheck disable=SC2086
    fronted privoxy-legacy $PROXY_PORT 19522 "$(uvicorn 19522 sse httptools)" "privoxy --no-daemon $(privoxy_conf)" -- \
        $PROXIED_HTTP "${PY_SSE_CLIENT[@]}" "http://$HOST:19522/sse"
}
scenario_privoxy-connect() {
    local k; k="$(keys privoxy-connect)"
    # shellcheck disable=SC2086
    fronted privoxy-connect $PROXY_PORT 19523 "$(uvicorn 19523 streamable httptools --ssl-certfile $CERT --ssl-keyfile $KEY)" \
        "privoxy --no-daemon $(privoxy_conf)" -- \
        $PROXIED_HTTPS "SSL_CERT_FILE=$CERT" "SSLKEYLOGFILE=$k" "${PY_CLIENT[@]}" "https://$HOST:19523/mcp"
}

ALL=(daphne daphne-json daphne-legacy daphne-no-lifespan gunicorn-w1 gunicorn-w2 uvicorn-h11 uvicorn-httptools stunnel
     privoxy-http privoxy-legacy privoxy-connect)

run_scenarios "tcpdump tshark ss openssl stunnel4 privoxy" -- "$@"

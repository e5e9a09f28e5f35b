#!/usr/bin/env bash
# mcptap ecosystem corpus, group "buffering": SSE through intermediaries that buffer or compress, each with its
# DEFAULT configuration or the one line its documentation gives for compression, in front of MCP servers that stream
# slowly: slow_count with notifications/progress 1.5 s apart on the POST reply, and announce, whose
# notifications/resources/updated go out 1.5 s apart on the session's standalone GET stream. Servers: the official
# Python SDK (mcp 2.3.0, buffering/py_server.py in ../sdks/.venv) and the official TS SDK (1.32.2 on express,
# buffering/ts-server.mjs), both with their defaults (SSE replies without ids, `X-Accel-Buffering: no`); and the
# official Java SDK server (2.0.1, ../javasdk/JavaSdkServer streamable, the javasdk group's build), which sends no
# `X-Accel-Buffering` header. Clients: the official SDK clients (buffering/py_client.py, buffering/ts_client.mjs).
# Each capture holds both hops (client <-> intermediary, intermediary <-> server), 127.0.0.1 only, ports 20390-20409:
#   nginx-gzip-py         20390 -> 20391: nginx, MCP recipe (proxy_buffering off) + `gzip on; gzip_types
#                         application/json text/event-stream` -> Python SDK server <- Python SDK client
#   nginx-gzip-ts         20392 -> 20393: the same nginx -> TS SDK server <- TS SDK client
#   nginx-buffered-java   20394 -> 20395: nginx with its default proxy_buffering (on) + the same gzip lines -> Java SDK
#                         server (no X-Accel-Buffering) <- TS SDK client, slow_count(100) 0.1 s apart
#   nginx-buffered-py     20396 -> 20397: the same buffered nginx -> Python SDK server <- Python SDK client
#   varnish-gzip-ts       20398 -> 20399: Varnish default.vcl + `set beresp.do_gzip = true` -> TS SDK server <- TS client
#                         (varnishd -T management on 20400, 127.0.0.1)
#   varnish-gzip-py       20401 -> 20402: the same Varnish -> Python SDK server <- Python client (-T on 20403)
#   lighttpd-deflate-py   20404 -> 20405: lighttpd mod_proxy (stream-response-body 2) + mod_deflate with JSON and SSE
#                         in deflate.mimetypes -> Python SDK server <- Python client
#   haproxy-compression-ts 20406 -> 20407: HAProxy `compression algo gzip` + `compression type` with JSON and SSE ->
#                         TS SDK server <- TS client
# (ports 20408-20409 are never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/buffering.sh             # every scenario
#   sudo bash samples/gen/ecosystem/buffering.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/buffering-<scenario>.pcap, listings samples/gen/wire/ecosystem/buffering-<scenario>.pcap.txt
# (buffering/wire.py FRONT BACK, which is ../replicas/wire.py with the encoding headers). Each client run is bounded
# (timeout 60); every process is stopped after its scenario; a guard capture on every interface (lib.sh
# guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm, java 17, and the
# Debian 12 packages nginx, varnish, lighttpd + lighttpd-mod-deflate, haproxy. First use makes the sdks group's venv
# sdks/.venv (mcp 2.3.0), buffering/node_modules (`npm ci`), and needs ../javasdk/build (javasdk/build.sh). All
# git-ignored (buffering/.gitignore). Results and labels: samples/ecosystem/buffering.md, labels-buffering.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/buffering"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=buffering
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1 NODE_ENV=production

SDKPY="$ECO/sdks/.venv/bin/python"
PY_SERVER=("$SDKPY" "$W/py_server.py")                  # PORT
TS_SERVER=(node "$W/ts-server.mjs")                      # PORT
J_SERVER=(java -cp "$(cat "$ECO/javasdk/build/classpath" 2>/dev/null || true)" JavaSdkServer streamable)   # PORT
PY_CLIENT=("$SDKPY" "$W/py_client.py")                  # URL
TS_CLIENT=(node "$W/ts_client.mjs")                      # URL [java]

setup() {
    setup_pysdk
    need_npm "$W"
    [ -f "$ECO/javasdk/build/classpath" ] || bash "$ECO/javasdk/build.sh"
}

# proxied NAME FRONT BACK SERVER-KIND PROXY-CMD... -- CLIENT-CMD...: guard on, the server (py, ts, java) up on BACK,
# the intermediary (PROXY-CMD) on FRONT, capture of both ports, one bounded client run, capture stop and listing,
# everything down, guard off.
proxied() {
    local name=$1 front=$2 back=$3 kind=$4; shift 4
    local prx=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do prx+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$back")
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    case $kind in
        py)   bg "$name-server" "${PY_SERVER[@]}" "$back" ;;
        ts)   bg "$name-server" "${TS_SERVER[@]}" "$back" ;;
        java) bg "$name-server" "${J_SERVER[@]}" "$back" ;;
    esac
    listening "$back"
    bg "$name-proxy" "${prx[@]}"
    listening "$front"
    sleep 1
    capture_start "$name" "$front" "$back"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
URL() { echo "http://$HOST:$1/mcp"; }

nginx_cmd() {      # nginx_cmd NAME TEMPLATE FRONT BACK
    local prefix="$RUN/nginx-$1"
    mkdir -p "$prefix/tmp"
    sed -e "s/@FRONT@/$3/" -e "s/@BACK@/$4/" "$W/$2" >"$prefix/nginx.conf"
    echo nginx -p "$prefix" -c "$prefix/nginx.conf"
}
varnish_cmd() {    # varnish_cmd NAME FRONT BACK ADMIN
    rm -rf "$RUN/varnish-$1"; mkdir -p "$RUN/varnish-$1"
    sed -e "s/@BACK@/$3/" "$W/varnish-gzip.vcl.in" >"$RUN/$1.vcl"
    echo varnishd -F -f "$RUN/$1.vcl" -a "$HOST:$2" -T "$HOST:$4" -n "$RUN/varnish-$1" -s malloc,32m
}
lighttpd_cmd() {   # lighttpd_cmd FRONT BACK
    echo env "B_FRONT=$1" "B_BACK=$2" "B_RUN=$RUN" lighttpd -D -f "$W/lighttpd-deflate.conf"
}
haproxy_cmd() {    # haproxy_cmd NAME FRONT BACK
    sed -e "s/@FRONT@/$2/" -e "s/@BACK@/$3/" "$W/haproxy-compression.cfg.in" >"$RUN/$1.cfg"
    echo haproxy -db -f "$RUN/$1.cfg"
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_cmd helpers print a word list without spaces inside words
scenario_nginx-gzip-py() {
    proxied nginx-gzip-py 20390 20391 py $(nginx_cmd nginx-gzip-py nginx-gzip.conf.in 20390 20391) -- "${PY_CLIENT[@]}" "$(URL 20390)"
}
scenario_nginx-gzip-ts() {
    proxied nginx-gzip-ts 20392 20393 ts $(nginx_cmd nginx-gzip-ts nginx-gzip.conf.in 20392 20393) -- "${TS_CLIENT[@]}" "$(URL 20392)"
}
scenario_nginx-buffered-java() {
    proxied nginx-buffered-java 20394 20395 java $(nginx_cmd nginx-buffered-java nginx-gzip-buffered.conf.in 20394 20395) -- "${TS_CLIENT[@]}" "$(URL 20394)" java
}
scenario_nginx-buffered-py() {
    proxied nginx-buffered-py 20396 20397 py $(nginx_cmd nginx-buffered-py nginx-gzip-buffered.conf.in 20396 20397) -- "${PY_CLIENT[@]}" "$(URL 20396)"
}
scenario_varnish-gzip-ts() {
    proxied varnish-gzip-ts 20398 20399 ts $(varnish_cmd varnish-gzip-ts 20398 20399 20400) -- "${TS_CLIENT[@]}" "$(URL 20398)"
}
scenario_varnish-gzip-py() {
    proxied varnish-gzip-py 20401 20402 py $(varnish_cmd varnish-gzip-py 20401 20402 20403) -- "${PY_CLIENT[@]}" "$(URL 20401)"
}
scenario_lighttpd-deflate-py() {
    proxied lighttpd-deflate-py 20404 20405 py $(lighttpd_cmd 20404 20405) -- "${PY_CLIENT[@]}" "$(URL 20404)"
}
scenario_haproxy-compression-ts() {
    proxied haproxy-compression-ts 20406 20407 ts $(haproxy_cmd haproxy-compression-ts 20406 20407) -- "${TS_CLIENT[@]}" "$(URL 20406)"
}

ALL=(nginx-gzip-py nginx-gzip-ts nginx-buffered-java nginx-buffered-py varnish-gzip-ts varnish-gzip-py lighttpd-deflate-py
     haproxy-compression-ts)

run_scenarios "tcpdump tshark ss node java nginx varnishd lighttpd haproxy" -- "$@"

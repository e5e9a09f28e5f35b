#!/usr/bin/env bash
# mcptap ecosystem corpus, group "wsgi": the official Python SDK's Streamable HTTP server deployed on WSGI hosts, alone
# and behind nginx, with the buffering and threading that come with them; loopback only (127.0.0.1, ports
# 20190-20209 of the group's 20190-20209), fully offline.
#
#   sudo bash samples/gen/ecosystem/wsgi.sh             # every scenario
#   sudo bash samples/gen/ecosystem/wsgi.sh SCENARIO..  # some of them
#
# The server: the official Python SDK **mcp 2.3.0** MCPServer of pysdk_tools.py (add, echo, slow_count), its
# `streamable_http_app` (stateful, SSE replies without ids, no event store) wrapped for WSGI by **a2wsgi 1.10.10**
# `ASGIMiddleware` (wsgi/wsgi_app.py: a2wsgi runs no ASGI lifespan, so the module runs the SDK's session manager in
# the loop it hands to a2wsgi). WSGI hosts (PyPI, wsgi/requirements.txt): **waitress 3.0.2** (`waitress-serve`, its
# defaults: 4 threads), **uWSGI 2.0.31** (built by pip; `--http-socket` or, behind nginx, `--socket` (the uwsgi
# protocol); one process, 4 threads, --lazy-apps), **gunicorn 27.0.1** (its defaults: one sync worker, timeout 30 s).
# The SDK's SSE replies carry `Connection: keep-alive`, a hop-by-hop header PEP 3333 forbids an application to send:
# waitress refuses it (500). WSGI_HOP=strip makes wsgi_app.py drop hop-by-hop headers (used with waitress but for the
# waitress-stock capture). nginx **1.22.1** (Debian 1.22.1-9+deb12u12), wsgi/nginx.conf.in, in front with `uwsgi_pass`
# (wsgi/uwsgi_params, Debian's file; nginx-uwsgi and nginx-uwsgi-nobuf drop its `HTTP_HOST $host` line, as upstream
# nginx's file has none, so the client's Host is passed) or `proxy_pass` (nginx's defaults: HTTP/1.0 upstream).
#
# The WSGI-native plug-in: **pyramid-mcp 0.0.27** (PyPI, wsgi/requirements-pyramid.txt, its own venv), a Pyramid
# application as its README lays one out (wsgi/pyramid_app.py), under waitress 3.0.2.
#
# Clients: wsgi/wsgi_client.py (Python SDK 2.3.0) and wsgi/wsgi_client.mjs (TS SDK 1.32.2): initialize, the GET
# stream, tools/list, add(1,2), echo, slow_count(30) (30 progress notifications 0.1 s apart: 3 s of streaming), the
# unknown tool `nope`, add("x",2), add(40,2), DELETE. Each run is bounded (timeout 60; 55 s inside the client).
#
# Scenarios (capture samples/ecosystem/wsgi-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   waitress-stock     waitress 20190, a2wsgi app unchanged; Python client.
#   waitress-py        waitress 20191, WSGI_HOP=strip; Python client.
#   uwsgi-py           uWSGI --http-socket 20193; Python client.
#   gunicorn-sync      gunicorn 20195, one sync worker (its default); Python client.
#   nginx-uwsgi        nginx 20196 -> uwsgi_pass uWSGI --socket 20197, uwsgi_buffering on (default); Python client.
#   nginx-uwsgi-nobuf  nginx 20198 -> uwsgi_pass 20199 with `uwsgi_buffering off`; TS client.
#   nginx-uwsgi-debian nginx 20200 -> uwsgi_pass 20201 with Debian's uwsgi_params unchanged (HTTP_HOST $host).
#   nginx-proxy        nginx 20202 -> proxy_pass waitress 20203 (strip), nginx defaults; Python client.
#   nginx-proxy-idle   nginx 20208 -> proxy_pass waitress 20209 (strip) with `proxy_ignore_headers X-Accel-Buffering`
#                      (proxy buffering stays on, whatever the upstream says; nginx's default 4 KiB buffers); the
#                      Python client sits idle 40 s (--idle 40) before its last call: only the GET stream is open.
#   nginx-proxy-bigbuf nginx 20206 -> proxy_pass waitress 20207 (strip), `proxy_ignore_headers X-Accel-Buffering`
#                      and `proxy_buffer_size 16k; proxy_buffers 4 16k` (the usual cure for "upstream sent too big
#                      header"); Python client with slow_count(60): 6 s of progress, about 9.5 KB, under one buffer.
#   pyramid-py         pyramid-mcp 0.0.27 (wsgi/pyramid_app.py, Pyramid 2.1) under waitress 20204; Python client.
#   pyramid-ts         the same on 20205; TS client.
#
# Servers and nginx are up before the capture starts (ports seen in the socket table, no probe) and stopped after it.
# Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; HOME of the servers is wsgi/run/<scenario>. A guard capture on every
# interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py), ss, nginx (Debian), node >= 20 with npm,
# python3 (3.11) with its headers and gcc (pip builds uWSGI). First use makes wsgi/.venv (requirements.txt),
# wsgi/.venv-pyramid (requirements-pyramid.txt),
# sdks/.venv (the listing) and wsgi/node_modules, all git-ignored. Results and labels: samples/ecosystem/wsgi.md,
# samples/ecosystem/labels-wsgi.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/wsgi"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=wsgi
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"
V="$W/.venv/bin"

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements.txt" uwsgi
    need_venv "$W/.venv-pyramid" "$W/requirements-pyramid.txt" waitress-serve
    need_npm "$W"
}

# host NAME KIND PORT: a WSGI host of wsgi_app.py in the background, cwd wsgi/, HOME RUN/NAME; KIND: waitress-stock,
# waitress (WSGI_HOP=strip), uwsgi (--http-socket), uwsgi-sock (--socket, the uwsgi protocol), gunicorn, pyramid
# (pyramid_app.py under waitress).
host() {
    local name=$1 kind=$2 port=$3 e
    e=(env -C "$W" HOME="$RUN/$name" PYTHONPATH="$W" WSGI_MCP_NAME="wsgi-$kind-{port}" WSGI_MCP_PORT="$port")
    case $kind in
        waitress-stock) bg "$name-host" "${e[@]}" "$V/waitress-serve" --host "$HOST" --port "$port" wsgi_app:application ;;
        waitress) bg "$name-host" "${e[@]}" WSGI_HOP=strip "$V/waitress-serve" --host "$HOST" --port "$port" wsgi_app:application ;;
        uwsgi|uwsgi-sock)
            local sock=--http-socket; [ "$kind" = uwsgi-sock ] && sock=--socket
            bg "$name-host" "${e[@]}" "$V/uwsgi" "$sock" "$HOST:$port" --virtualenv "$W/.venv" --module wsgi_app:application \
                --master --lazy-apps --processes 1 --threads 4 --enable-threads --die-on-term ;;
        gunicorn) bg "$name-host" "${e[@]}" "$V/gunicorn" -b "$HOST:$port" wsgi_app:application ;;
        pyramid) bg "$name-host" "${e[@]}" "$W/.venv-pyramid/bin/waitress-serve" --host "$HOST" --port "$port" pyramid_app:application ;;
    esac
}

# front NAME FRONT PASS...: nginx on FRONT with RUN/NAME/nginx.conf from nginx.conf.in, PASS (lines) its location body.
front() {
    local name=$1 port=$2 dir="$RUN/$1"; shift 2
    local pass; pass=$(printf '            %s\n' "$@")
    mkdir -p "$dir"
    # Debian's uwsgi_params as is, and upstream nginx's (no HTTP_HOST line: the client's Host header is passed)
    cp "$W/uwsgi_params" "$dir/uwsgi_params.debian"
    grep -v 'HTTP_HOST' "$W/uwsgi_params" >"$dir/uwsgi_params.upstream"
    PASS="$pass" RUNDIR="$dir" FRONT="$port" python3 -c '
import os, sys
s = open(sys.argv[1]).read()
for k, v in (("@RUN@", os.environ["RUNDIR"]), ("@FRONT@", os.environ["FRONT"]), ("@PASS@", os.environ["PASS"])):
    s = s.replace(k, v)
open(sys.argv[2], "w").write(s)' "$W/nginx.conf.in" "$dir/nginx.conf"
    bg "$name-nginx" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/nginx-error.log" -g 'daemon off;'
}

# scenario NAME KIND PORT [FRONT PASS...] -- CLIENT...: guard on, the host (and nginx) up, capture of the ports, one
# bounded client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 kind=$2 port=$3 fport="" c pass=()
    shift 3
    if [ "$1" != "--" ]; then fport=$1; shift; while [ "$1" != "--" ]; do pass+=("$1"); shift; done; fi
    shift
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$port" $fport
    host "$name" "$kind" "$port"; listening "$port"
    [ -n "$fport" ] && { front "$name" "$fport" "${pass[@]}"; listening "$fport"; }
    sleep 2
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" ${fport:+"$fport"} "$port")
    capture_start "$name" "$port" $fport
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
    grep -aE '^\[' "$RUN/$name-client.log" | grep -v progress | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

u() { echo "http://$HOST:$1/mcp"; }
PYC=("$V/python" "$W/wsgi_client.py")
TSC=(node "$W/wsgi_client.mjs")

scenario_waitress-stock() { scenario waitress-stock waitress-stock 20190 -- "${PYC[@]}" "$(u 20190)"; }
scenario_waitress-py()    { scenario waitress-py waitress 20191 -- "${PYC[@]}" "$(u 20191)"; }
scenario_uwsgi-py()       { scenario uwsgi-py uwsgi 20193 -- "${PYC[@]}" "$(u 20193)"; }
scenario_gunicorn-sync()  { scenario gunicorn-sync gunicorn 20195 -- "${PYC[@]}" "$(u 20195)"; }
scenario_nginx-uwsgi() {
    scenario nginx-uwsgi uwsgi-sock 20197 20196 "include uwsgi_params.upstream;" "uwsgi_pass $HOST:20197;" \
        -- "${PYC[@]}" "$(u 20196)"
}
scenario_nginx-uwsgi-nobuf() {
    scenario nginx-uwsgi-nobuf uwsgi-sock 20199 20198 "include uwsgi_params.upstream;" "uwsgi_pass $HOST:20199;" \
        "uwsgi_buffering off;" -- "${TSC[@]}" "$(u 20198)" B
}
scenario_nginx-uwsgi-debian() {
    scenario nginx-uwsgi-debian uwsgi-sock 20201 20200 "include uwsgi_params.debian;" "uwsgi_pass $HOST:20201;" \
        -- "${PYC[@]}" "$(u 20200)"
}
scenario_nginx-proxy() {
    scenario nginx-proxy waitress 20203 20202 "proxy_pass http://$HOST:20203;" -- "${PYC[@]}" "$(u 20202)"
}

scenario_nginx-proxy-bigbuf() {
    scenario nginx-proxy-bigbuf waitress 20207 20206 "proxy_pass http://$HOST:20207;" \
        "proxy_ignore_headers X-Accel-Buffering;" "proxy_buffer_size 16k;" "proxy_buffers 4 16k;" -- "${PYC[@]}" "$(u 20206)" --count 60
}
scenario_nginx-proxy-idle() {
    scenario nginx-proxy-idle waitress 20209 20208 "proxy_pass http://$HOST:20209;" \
        "proxy_ignore_headers X-Accel-Buffering;" -- "${PYC[@]}" "$(u 20208)" --idle 40
}
scenario_pyramid-py()     { scenario pyramid-py pyramid 20204 -- "${PYC[@]}" "$(u 20204)"; }
scenario_pyramid-ts()     { scenario pyramid-ts pyramid 20205 -- "${TSC[@]}" "$(u 20205)" B; }

ALL=(waitress-stock waitress-py uwsgi-py gunicorn-sync nginx-uwsgi nginx-uwsgi-nobuf nginx-uwsgi-debian
     nginx-proxy nginx-proxy-idle nginx-proxy-bigbuf pyramid-py pyramid-ts)
run_scenarios "tcpdump tshark ss node npm nginx" -- "$@"

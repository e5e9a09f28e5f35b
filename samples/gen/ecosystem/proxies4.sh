#!/usr/bin/env bash
# mcptap ecosystem corpus, group "proxies4": real MCP traffic through more proxies from Debian 12 the corpus
# lacked: squid 5.7 as a *reverse* proxy (accelerator mode, the Squid wiki's basic accelerator example), HAProxy 2.6 in
# TCP mode (a layer-4 relay), sniproxy 0.6 (its `proto http` listener: Host-routed byte relay) and tinyproxy 1.11 (a
# forward proxy, Debian's default configuration, the client pointed at it by HTTP_PROXY), and Apache httpd 2.4 with
# mod_proxy_http2 (h2c to the backend), in front of the official MCP SDK servers. Cleartext HTTP/1.1 on both hops (h2c
# on apache-h2c's backend hop), captured on loopback (127.0.0.1, the group's ports 19870-19889), both
# hops in one capture (client <-> proxy on the front port, proxy <-> MCP server on the backend port).
#
#   sudo bash samples/gen/ecosystem/proxies4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/proxies4.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/proxies4-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/proxies4-<scenario>.pcap.txt):
#   squid-accel         squid accel (proxies4/squid-accel.conf.in as the wiki's example: `no-vhost`) on 19870 -> Python
#                       SDK server (Streamable HTTP, stateful) on 19871; Python client: squid sends `Host: 127.0.0.1`,
#                       the server answers initialize 421 (DNS-rebinding check), the client gives up
#   squid-accel-vhost   squid accel with `vhost` (the client's Host kept) on 19882 -> Python SDK server on 19883;
#                       Python client, slow_count(60), then 20 s idle with its GET stream open
#   squid-accel-legacy  the same squid (vhost) on 19872 -> Python SDK legacy HTTP+SSE app on 19873; Python SSE client,
#                       slow_count(60)
#   squid-accel-kill    the same squid on 19874 -> TS SDK server on 19875; TS client, slow_count(60); 4 s after the
#                       client starts (mid slow_count) the server is killed (SIGKILL); the client goes on alone
#   haproxy-tcp         HAProxy 2.6 in TCP mode (proxies4/haproxy-tcp.cfg.in: Debian's defaults with `mode tcp`) on
#                       19884 -> TS SDK server on 19885; TS client, slow_count(60), then 20 s idle
#   haproxy-tcp-legacy  the same HAProxy on 19886 -> Python SDK legacy HTTP+SSE app on 19887; Python SSE client
#   sniproxy-http       sniproxy 0.6 (proxies4/sniproxy.conf.in: Debian's `proto http` listener example, Host
#                       127.0.0.1 -> the backend) on 19888 -> Python SDK server on 19889; Python client, slow_count(60),
#                       then 20 s idle
#   apache-h2c          Apache 2.4 (proxies4/apache-h2c.conf.in: `ProxyPass /mcp h2c://...`, mod_proxy_http2) on 19878
#                       -> the Python SDK app under hypercorn (h2c, ../h2more/h2more_py.py:app) on 19879; Python
#                       client (HTTP/1.1), slow_count(60), then 20 s idle; listed by proxies4/wire.py
#   tinyproxy           tinyproxy (proxies4/tinyproxy.conf.in, Timeout 600) on 19876, the Python client with
#                       HTTP_PROXY=http://127.0.0.1:19876 -> Python SDK server on 19877; slow_count(60), 20 s idle
#   tinyproxy-legacy    the same tinyproxy on 19878 -> Python SDK legacy HTTP+SSE app on 19879; Python SSE client
#   tinyproxy-timeout   tinyproxy with Timeout 10 on 19880 -> Python SDK server on 19881; Python client,
#                       slow_count(60), then 25 s idle with its GET stream open (the proxy's idle timeout, 10 s,
#                       is shorter than the server's 15 s keep-alive comment)
#
# Every client run: initialize, tools/list, add(1,2), echo("hello"), slow_count(60) with a progressToken (60
# notifications/progress 0.1 s apart, about 6 s), [idle], add(40,2), close (DELETE for Streamable HTTP). Reused by
# path, not copied: ../proxies2/py_client.py (Python SDK mcp 2.3.0, `Client(url, mode="legacy")`, `--sse` for
# HTTP+SSE), ../proxies2/ts_client.mjs and ../proxies2/ts-server.mjs (TS SDK 1.32.2, ../proxies2/node_modules),
# ../py_server.py in the sdks group's venv (sdks/.venv), ../proxies2/wire.py (the listing), ../h2more/h2more_py.py
# (the ASGI app for hypercorn) with ../h2more/requirements.txt (pins of proxies4/.venv-h2), ../proxies3/wire.py (under
# proxies4/wire.py).
#
# Needs root (tcpdump; squid drops to `proxy`, tinyproxy to `tinyproxy`, sniproxy to `daemon`, each owning its run
# directory; Apache's workers run as www-data), tcpdump, tshark, python3 with venv, node 20 + npm, and the Debian
# packages squid, haproxy, sniproxy, apache2 and tinyproxy (`apt-get install -y squid haproxy sniproxy apache2
# tinyproxy`; versions in proxies4/SOURCES; their postinst did not start the services where policy-rc.d forbids it; if
# it did, stop them: they are not part of any capture). The proxies run as foreground processes of our own (`squid -N
# -f`, `haproxy -db -f`, `sniproxy -f -c`, `apache2 -f ... -DFOREGROUND`, `tinyproxy -d -c`) with configs rendered
# from proxies4/ into proxies4/run/; /etc and the system services are left alone. First use makes sdks/.venv,
# proxies4/.venv-h2 and proxies2/node_modules. All git-ignored (proxies4/.gitignore).
# Results and labels: samples/ecosystem/proxies4.md, samples/ecosystem/labels-proxies4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/proxies4"                                       # config templates
P2="$ECO/proxies2"                                      # the proxies2 group's clients, TS server, listing (read only)
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the proxies' own directories
VPY="$ECO/sdks/.venv/bin/python"
GROUP=proxies4
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false DO_NOT_TRACK=1

setup() {
    setup_pysdk
    need_npm "$P2"
    need_venv "$W/.venv-h2" "$ECO/h2more/requirements.txt" hypercorn   # the h2more group's pins, by path
}

# squid_conf NAME FRONT BACK VHOST(no-vhost|vhost) / tinyproxy_conf NAME PORT TIMEOUT: render the template into RUN/<proxy>-NAME/, owned
# by the proxy's user; print the command line that runs the proxy in the foreground.
squid_conf() {
    local d="$RUN/squid-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s|@RUN@|$d|g" -e "s|@FRONT@|$2|g" -e "s|@BACK@|$3|g" -e "s|@VHOST@|$4|g" "$W/squid-accel.conf.in" >"$d/squid.conf"
    chown -R proxy:proxy "$d"
    squid -k parse -f "$d/squid.conf" >"$RUN/squid-$1-parse.log" 2>&1 || { cat "$RUN/squid-$1-parse.log" >&2; exit 1; }
    echo squid -N -f "$d/squid.conf"
}
haproxy_conf() {   # haproxy_conf NAME FRONT BACK
    local d="$RUN/haproxy-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s|@RUN@|$d|g" -e "s|@FRONT@|$2|g" -e "s|@BACK@|$3|g" "$W/haproxy-tcp.cfg.in" >"$d/haproxy.cfg"
    haproxy -c -f "$d/haproxy.cfg" >"$RUN/haproxy-$1-check.log" 2>&1 || { cat "$RUN/haproxy-$1-check.log" >&2; exit 1; }
    echo haproxy -f "$d/haproxy.cfg" -db
}
sniproxy_conf() {  # sniproxy_conf NAME FRONT BACK (in the foreground: -f)
    local d="$RUN/sniproxy-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s|@RUN@|$d|g" -e "s|@FRONT@|$2|g" -e "s|@BACK@|$3|g" "$W/sniproxy.conf.in" >"$d/sniproxy.conf"
    chown -R daemon "$d"
    echo sniproxy -f -c "$d/sniproxy.conf"
}
apache_conf() {    # apache_conf NAME FRONT BACK
    local d="$RUN/apache-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s|@RUN@|$d|g" -e "s|@FRONT@|$2|g" -e "s|@BACK@|$3|g" "$W/apache-h2c.conf.in" >"$d/apache.conf"
    apache2 -t -f "$d/apache.conf" >"$RUN/apache-$1-check.log" 2>&1 || { cat "$RUN/apache-$1-check.log" >&2; exit 1; }
    echo apache2 -f "$d/apache.conf" -DFOREGROUND
}
tinyproxy_conf() {
    local d="$RUN/tinyproxy-$1"
    rm -rf "$d"; mkdir -p "$d"
    sed -e "s|@RUN@|$d|g" -e "s|@PORT@|$2|g" -e "s|@TIMEOUT@|$3|g" "$W/tinyproxy.conf.in" >"$d/tinyproxy.conf"
    chown -R tinyproxy:tinyproxy "$d"
    echo tinyproxy -d -c "$d/tinyproxy.conf"
}

# stop_proxy PID: SIGTERM (squid waits its shutdown_lifetime, 30 s, for active connections), SIGKILL to the group
# after 40 s.
stop_proxy() {
    local i
    kill -TERM "$1" 2>/dev/null || true
    for i in $(seq 1 400); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# proxied NAME FRONT BACK SERVER(py|py-sse|ts) CLIENT(py|py-sse|ts|fwd|fwd-sse) SLOW HOLD KILL PROXY-CMD...: the MCP
# server on BACK, the proxy on FRONT (watched with ss: no probe), the offline guard, a capture of both ports, one
# bounded client run (timeout 45 + SLOW/10 + HOLD) through the proxy (fwd: HTTP_PROXY=http://127.0.0.1:FRONT and the
# server's own URL), the server killed KILL s after the client starts (0: not), the proxy stopped after the capture,
# everything down.
proxied() {
    local name=$1 front=$2 back=$3 srv=$4 cli=$5 slow=$6 hold=$7 kill_after=$8; shift 8
    local rc=0 url="http://$HOST:$front/mcp" bound=$((45 + slow / 10 + hold)) cmd srv_pid proxy_pid cpid
    local noproxy=(env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY -u NO_PROXY)
    free "$front" "$back"
    case $srv in
        py)     server "$name-server" "$back" "$VPY" "$ECO/py_server.py" "$back" --name "proxies4-py-server" ;;
        py-sse) server "$name-server" "$back" "$VPY" "$ECO/py_server.py" "$back" --name "proxies4-py-server" --sse ;;
        ts)     server "$name-server" "$back" node "$P2/ts-server.mjs" "$back" ;;
        hyp)    server "$name-server" "$back" "$W/.venv-h2/bin/hypercorn" --bind "$HOST:$back" "$ECO/h2more/h2more_py.py:app" ;;
    esac
    srv_pid=$LAST_PID
    bg "$name-proxy" "$@"
    proxy_pid=$LAST_PID
    listening "$front"
    case $cli in
        py)      cmd=("${noproxy[@]}" "$VPY" "$P2/py_client.py" "$url" --slow "$slow" --hold "$hold") ;;
        py-sse)  cmd=("${noproxy[@]}" "$VPY" "$P2/py_client.py" "http://$HOST:$front/sse" --sse --slow "$slow" --hold "$hold") ;;
        ts)      cmd=("${noproxy[@]}" node "$P2/ts_client.mjs" "$url" "$slow" "$hold") ;;
        fwd)     cmd=("${noproxy[@]}" "HTTP_PROXY=http://$HOST:$front" "$VPY" "$P2/py_client.py" "http://$HOST:$back/mcp"
                      --slow "$slow" --hold "$hold") ;;
        fwd-sse) cmd=("${noproxy[@]}" "HTTP_PROXY=http://$HOST:$front" "$VPY" "$P2/py_client.py" "http://$HOST:$back/sse"
                      --sse --slow "$slow" --hold "$hold") ;;
    esac
    DESCRIBE=("$VPY" "$P2/wire.py" "$front" "$back")
    [ "$srv" = hyp ] && DESCRIBE=("$VPY" "$W/wire.py" "$front" "$back")   # an h2c backend hop
    guard_start "$name"
    capture_start "$name" "$front" "$back"
    timeout "$bound" "${cmd[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    if [ "$kill_after" != 0 ]; then sleep "$kill_after"; echo "   killing the server (SIGKILL)"; stop "$srv_pid" KILL; fi
    wait "$cpid" || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    guard_stop "$name"
    stop_proxy "$proxy_pid"
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_conf helpers print a word list without spaces inside words
scenario_squid-accel()        { proxied squid-accel 19870 19871 py py 60 0 0 $(squid_conf accel 19870 19871 no-vhost); }
scenario_squid-accel-vhost()  { proxied squid-accel-vhost 19882 19883 py py 60 20 0 $(squid_conf accel-vhost 19882 19883 vhost); }
scenario_squid-accel-legacy() { proxied squid-accel-legacy 19872 19873 py-sse py-sse 60 0 0 $(squid_conf accel-legacy 19872 19873 vhost); }
scenario_squid-accel-kill()   { proxied squid-accel-kill 19874 19875 ts ts 60 0 4 $(squid_conf accel-kill 19874 19875 vhost); }
scenario_haproxy-tcp()        { proxied haproxy-tcp 19884 19885 ts ts 60 20 0 $(haproxy_conf tcp 19884 19885); }
scenario_haproxy-tcp-legacy() { proxied haproxy-tcp-legacy 19886 19887 py-sse py-sse 60 0 0 $(haproxy_conf tcp-legacy 19886 19887); }
scenario_sniproxy-http()      { proxied sniproxy-http 19888 19889 py py 60 20 0 $(sniproxy_conf http 19888 19889); }
scenario_apache-h2c()         { proxied apache-h2c 19878 19879 hyp py 60 20 0 $(apache_conf h2c 19878 19879); }
scenario_tinyproxy()          { proxied tinyproxy 19876 19877 py fwd 60 20 0 $(tinyproxy_conf default 19876 600); }
scenario_tinyproxy-legacy()   { proxied tinyproxy-legacy 19878 19879 py-sse fwd-sse 60 0 0 $(tinyproxy_conf legacy 19878 600); }
scenario_tinyproxy-timeout()  { proxied tinyproxy-timeout 19880 19881 py fwd 60 25 0 $(tinyproxy_conf timeout 19880 10); }

ALL=(squid-accel squid-accel-vhost squid-accel-legacy squid-accel-kill haproxy-tcp haproxy-tcp-legacy sniproxy-http apache-h2c
     tinyproxy tinyproxy-legacy tinyproxy-timeout)

run_scenarios "tcpdump tshark node npm squid haproxy sniproxy apache2 tinyproxy" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "proxies2": real MCP traffic through two more reverse proxies from Debian 12, lighttpd
# 1.4 and Varnish 7, in the configurations users deploy (the documented reverse-proxy setup, then the one change
# their docs or the usual SSE snippet advise), in front of the official MCP SDK servers. Cleartext HTTP/1.1 on both
# hops, captured on loopback (127.0.0.1, ports 19250-19269 only), both hops in one capture (client <-> proxy on the
# front port, proxy <-> MCP server on the backend port).
#
#   sudo bash samples/gen/ecosystem/proxies2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/proxies2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/proxies2-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/proxies2-<scenario>.pcap.txt):
#   lighttpd-buffered         lighttpd (proxies2/lighttpd-buffered.conf: mod_proxy, server.stream-response-body at its
#                             default 0) on 19250 -> Python SDK server (Streamable HTTP, stateful) on 19251; Python
#                             client, slow_count(60), then 50 s idle with its GET stream open
#   lighttpd-buffered-ts      the same lighttpd -> TS SDK server; TS client, slow_count(60), no idle
#   lighttpd-buffered-legacy  the same lighttpd -> Python SDK legacy HTTP+SSE app; Python SSE client (it waits for
#                             the `endpoint` event until its run is over: 36 s)
#   lighttpd-stream           lighttpd (proxies2/lighttpd-stream.conf: the same with server.stream-response-body = 2)
#                             on 19254 -> TS SDK server on 19255; TS client, slow_count(60), then 55 s idle
#   lighttpd-stream-legacy    the same lighttpd -> Python SDK legacy HTTP+SSE app; Python SSE client, slow_count(60)
#   varnish-default           Varnish (proxies2/varnish-default.vcl: Debian's default.vcl with the backend, the built-in
#                             VCL for the rest) on 19258 -> TS SDK server on 19259; TS client, slow_count(60), 55 s idle
#   varnish-default-legacy    the same Varnish -> Python SDK legacy HTTP+SSE app; Python SSE client, slow_count(60)
#   varnish-sse               Varnish (proxies2/varnish-sse.vcl: + `return (pass)` for the MCP paths and
#                             `set beresp.do_stream = true`, uncacheable, for text/event-stream) on 19260 -> Python SDK
#                             server on 19261; Python client, slow_count(60), then 55 s idle
# Varnish's management port (-T) is 127.0.0.1:19268; nothing connects to it.
#
# Clients: proxies2/py_client.py (Python SDK mcp 2.3.0, `Client(url, mode="legacy")` or `Client(sse_client(url))`
# for HTTP+SSE) and proxies2/ts_client.mjs (TS SDK 1.32.2 StreamableHTTPClientTransport): initialize, tools/list,
# add(1,2), echo("hello"), slow_count(60) with a progressToken (60 notifications/progress 0.1 s apart, about 6 s),
# [idle], add(40,2), close (DELETE for Streamable HTTP). Servers: ../py_server.py (Python SDK MCPServer of
# ../pysdk_tools.py, uvicorn; --sse for the legacy app) in the sdks group's venv (sdks/.venv), and
# proxies2/ts-server.mjs (TS SDK 1.32.2 on express, the README's stateful pattern, ../ts_common.mjs).
#
# Needs root (tcpdump), tcpdump, tshark (the listing, proxies2/wire.py), python3 with venv, node 20 + npm, and the
# Debian packages lighttpd and varnish (`apt-get install -y lighttpd varnish`; their postinst does not start the
# services where policy-rc.d forbids it; if it did, stop them: they are not part of any capture). The proxies run as
# foreground processes of our own (lighttpd -D, varnishd -F) with their config from proxies2/ and their pid, log and
# work directories under proxies2/run/; /etc and the system services are left alone. First use makes sdks/.venv and
# proxies2/node_modules (`npm ci`). All git-ignored (proxies2/.gitignore).
# Results and labels: samples/ecosystem/proxies2.md, samples/ecosystem/labels-proxies2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/proxies2"                                       # configs, clients, TS server, listing
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, pids, Varnish work directories
VPY="$ECO/sdks/.venv/bin/python"
GROUP=proxies2
ADMIN=19268                                             # varnishd -T (management), bound to 127.0.0.1
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, capture_start/stop, guard_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    setup_pysdk
    need_npm "$W"
}

# proxied NAME FRONT BACK SERVER(py|py-sse|ts) CLIENT(py|py-sse|ts) SLOW HOLD PROXY-CMD...: the MCP server on BACK,
# the proxy (PROXY-CMD, in the foreground, started from proxies2/) on FRONT, the offline guard, a capture of both
# ports, one client run through the proxy (slow_count(SLOW), HOLD s idle; bounded: timeout 45 + SLOW/10 + HOLD),
# capture stop, everything down.
proxied() {
    local name=$1 front=$2 back=$3 srv=$4 cli=$5 slow=$6 hold=$7; shift 7
    local rc=0 url="http://$HOST:$front/mcp" bound=$((45 + slow / 10 + hold)) cmd
    free "$front" "$back"
    case $srv in
        py)     server "$name-server" "$back" "$VPY" "$ECO/py_server.py" "$back" --name "proxies2-py-server" ;;
        py-sse) server "$name-server" "$back" "$VPY" "$ECO/py_server.py" "$back" --name "proxies2-py-server" --sse ;;
        ts)     server "$name-server" "$back" node "$W/ts-server.mjs" "$back" ;;
    esac
    cd "$W"
    bg "$name-proxy" "$@"
    cd - >/dev/null
    listening "$front"                                  # watched in the socket table: no probe through the proxy
    case $cli in
        py)     cmd=("$VPY" "$W/py_client.py" "$url" --slow "$slow" --hold "$hold") ;;
        py-sse) cmd=("$VPY" "$W/py_client.py" "http://$HOST:$front/sse" --sse --slow "$slow" --hold "$hold") ;;
        ts)     cmd=(node "$W/ts_client.mjs" "$url" "$slow" "$hold") ;;
    esac
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$back")
    guard_start "$name"
    capture_start "$name" "$front" "$back"
    timeout "$bound" "${cmd[@]}" >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}

lighttpd_cmd() {   # lighttpd_cmd CONF FRONT BACK
    echo env "P2_FRONT=$2" "P2_BACK=$3" "P2_RUN=$RUN" lighttpd -D -f "$W/$1"
}
varnish_cmd() {    # varnish_cmd NAME VCL FRONT
    rm -rf "$RUN/varnish-$1"
    echo varnishd -F -f "$W/$2" -a "$HOST:$3" -T "$HOST:$ADMIN" -n "$RUN/varnish-$1" -s malloc,32m
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_cmd helpers print a word list without spaces inside words
scenario_lighttpd-buffered() {
    proxied lighttpd-buffered 19250 19251 py py 60 50 $(lighttpd_cmd lighttpd-buffered.conf 19250 19251)
}
scenario_lighttpd-buffered-ts() {
    proxied lighttpd-buffered-ts 19252 19253 ts ts 60 0 $(lighttpd_cmd lighttpd-buffered.conf 19252 19253)
}
scenario_lighttpd-buffered-legacy() {
    proxied lighttpd-buffered-legacy 19250 19251 py-sse py-sse 60 0 $(lighttpd_cmd lighttpd-buffered.conf 19250 19251)
}
scenario_lighttpd-stream() {
    proxied lighttpd-stream 19254 19255 ts ts 60 55 $(lighttpd_cmd lighttpd-stream.conf 19254 19255)
}
scenario_lighttpd-stream-legacy() {
    proxied lighttpd-stream-legacy 19256 19257 py-sse py-sse 60 0 $(lighttpd_cmd lighttpd-stream.conf 19256 19257)
}
scenario_varnish-default() {
    proxied varnish-default 19258 19259 ts ts 60 55 $(varnish_cmd default varnish-default.vcl 19258)
}
scenario_varnish-default-legacy() {
    proxied varnish-default-legacy 19258 19259 py-sse py-sse 60 0 $(varnish_cmd default-legacy varnish-default.vcl 19258)
}
scenario_varnish-sse() {
    proxied varnish-sse 19260 19261 py py 60 55 $(varnish_cmd sse varnish-sse.vcl 19260)
}

ALL=(lighttpd-buffered lighttpd-buffered-ts lighttpd-buffered-legacy lighttpd-stream lighttpd-stream-legacy
     varnish-default varnish-default-legacy varnish-sse)

run_scenarios "tcpdump tshark node npm lighttpd varnishd" -- "$@"

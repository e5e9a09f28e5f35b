#!/usr/bin/env bash
# mcptap ecosystem corpus, group "vhosts": one ingress address, several sites told apart by Host (name-based virtual
# hosting, as nginx, a CDN or a Kubernetes ingress does it), the same path meaning different things on different
# sites. Debian's nginx 1.22.1 in front of the official Python SDK server (mcp 2.3.0, ../py_server.py), captured on
# loopback (127.0.0.1, ports 19110-19129 only) with both hops in every capture: client <-> nginx (the "front") and
# nginx <-> each upstream port. The clients connect to 127.0.0.1 and name the site by an explicit Host header.
#
#   sudo bash samples/gen/ecosystem/vhosts.sh             # every scenario
#   sudo bash samples/gen/ecosystem/vhosts.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/vhosts-<scenario>.pcap, listing samples/gen/wire/ecosystem/vhosts-<scenario>.pcap.txt):
#   www-page        nginx 19110 (vhosts/nginx/www-page.conf): mcp.example.test -> the SDK server (Streamable HTTP,
#                   /mcp) on 19111; www.example.test's /mcp is an HTML page (nginx `return 200`). The SDK client
#                   (vhosts/py_client.py, legacy mode, Host: mcp.example.test:19110) runs a session on /mcp
#                   (initialize, tools/list, add, echo, close), then, 0.5 s later, curl fetches the web page as a
#                   browser does: `GET /mcp` with Host: www.example.test:19110 (curl --resolve), a browser's Accept
#                   and User-Agent, no MCP header -> 200 text/html
#   upstreams-down  nginx 19112 (vhosts/nginx/upstreams-down.conf): a., b., c.example.test each proxy to their own
#                   closed port (19117, 19118, 19119: nginx's connect() is refused, it answers 502), d.example.test to
#                   the SDK server on 19113. ONE client process (py_client.py) runs a session with each host in turn,
#                   0.5 s apart: the initializes to a, b and c are answered 502 (the SDK raises, that session ends: no
#                   retry), then a normal session with d
#   sse-moved       nginx 19114 (vhosts/nginx/sse-moved.conf): old.example.test -> the SDK's legacy HTTP+SSE app on
#                   19115 (GET /sse -> endpoint event, POST /messages/?session_id=); new.example.test's /sse is proxied
#                   to the SDK's Streamable HTTP app on 19116 (`location = /sse { proxy_pass .../mcp; }`: a site that
#                   moved to Streamable HTTP and kept its URL). Three client runs from 127.0.0.1, 0.5 s apart: a
#                   Streamable HTTP session to new.example.test/sse, an HTTP+SSE session (py_client.py --sse) to
#                   old.example.test/sse, the Streamable HTTP session to new.example.test/sse again
#
# Each session: initialize (legacy handshake, asks 2025-11-25), tools/list, add(1,2), echo("hello"), 0.1 s apart,
# close. Each request times out after 10 s, each session after 20 s, each client run after 60 s (lib.sh `run`); curl
# after 10 s. The servers are up before the capture starts (their ports probed then); nginx is started inside the
# capture, its port watched with `ss` (no probe packets), and stopped with SIGQUIT (graceful) before the capture ends.
# A guard capture on every interface (lib.sh guard_start/guard_stop) checks that nothing leaves 127.0.0.1.
#
# Needs root (tcpdump), nginx (Debian 12 package 1.22.1: `apt-get install -y nginx`; run as our own process with a
# private prefix, `nginx -p vhosts/run/nginx-SCENARIO -c vhosts/nginx/SCENARIO.conf`, not the service), curl, tcpdump,
# tshark (vhosts/wire.py), ss (iproute2), python3 (3.11) with venv. First use makes the sdks group's venv sdks/.venv
# (the Python SDK 2.3.0 server and client, sdks/requirements.txt); it and RUN are git-ignored (vhosts/.gitignore).
# Results and labels: samples/ecosystem/vhosts.md, samples/ecosystem/labels-vhosts.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/vhosts"                                         # harness code, nginx configurations
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, nginx prefixes, the offline guard's captures
GROUP=vhosts
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, guard, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the server and the MCP client; runs wire.py
SERVER=("$SDKPY" "$ECO/py_server.py" --name "vhosts-py-server-{port}")                     # PORT [--sse]
CLIENT=("$SDKPY" "$W/py_client.py")                     # [--sse] URL HOST...
# A browser's request headers (Firefox 128 ESR's), for the web page fetch.
UA="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
ACCEPT="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

setup() {
    setup_pysdk
    local c
    for c in www-page upstreams-down sse-moved; do
        mkdir -p "$RUN/nginx-check/tmp"
        nginx -t -q -p "$RUN/nginx-check" -c "$W/nginx/$c.conf" 2>"$RUN/nginx-check.log" || {
            cat "$RUN/nginx-check.log" >&2; exit 1; }
    done
}

# nginx_up NAME FRONT-PORT UPSTREAM-PORT...: the capture of the front port and the upstream ports starts, then nginx
# (nginx -p RUN/nginx-NAME -c vhosts/nginx/NAME.conf, a private prefix) inside it, waited for with `listening`.
nginx_up() {
    local name=$1 front=$2 prefix="$RUN/nginx-$1"
    shift 2
    rm -rf "$prefix"; mkdir -p "$prefix/tmp"; chmod -R 777 "$prefix"
    capture_start "$name" "$front" "$@"
    bg "$name-nginx" nginx -p "$prefix" -c "$W/nginx/$name.conf"
    NGINX_PID=$LAST_PID
    listening "$front"
}

# nginx_down NAME: 0.5 s after the last client run, nginx stopped gracefully (SIGQUIT: it closes idle keep-alive
# connections and exits), the capture stopped and listed, everything down, the guard capture ended; the access log
# shown.
nginx_down() {
    local name=$1 i
    sleep 0.5
    kill -QUIT "$NGINX_PID" 2>/dev/null || true
    for i in $(seq 1 100); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    sed "s/^/   access.log: /" "$RUN/nginx-$name/access.log" 2>/dev/null | cut -c1-200 || true
    grep -h "connect() failed" "$RUN/nginx-$name/error.log" 2>/dev/null | cut -c1-200 | sed "s/^/   error.log: /" || true
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_www-page() {
    local name=www-page front=19110 mcp=19111
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$mcp=backend")
    guard_start "$name"
    free "$front" "$mcp"
    server "$name-server" "$mcp" "${SERVER[@]}" "$mcp"
    nginx_up "$name" "$front" "$mcp"
    run "$name-client" "${CLIENT[@]}" "http://$HOST:$front/mcp" "mcp.example.test:$front"
    sleep 0.5
    run "$name-browser" curl -sS -m 10 --resolve "www.example.test:$front:$HOST" -H "User-Agent: $UA" \
        -H "Accept: $ACCEPT" -H "Accept-Language: en-US,en;q=0.5" -o /dev/null -w "%{http_code} %{content_type}\n" \
        "http://www.example.test:$front/mcp"
    nginx_down "$name"
}

scenario_upstreams-down() {
    local name=upstreams-down front=19112 d=19113
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$d=backend d" "19117=closed a" "19118=closed b" "19119=closed c")
    guard_start "$name"
    free "$front" "$d" 19117 19118 19119
    server "$name-server" "$d" "${SERVER[@]}" "$d"
    nginx_up "$name" "$front" "$d" 19117 19118 19119
    run "$name-client" "${CLIENT[@]}" "http://$HOST:$front/mcp" "a.example.test:$front" "b.example.test:$front" \
        "c.example.test:$front" "d.example.test:$front"
    nginx_down "$name"
}

scenario_sse-moved() {
    local name=sse-moved front=19114 old=19115 new=19116
    DESCRIBE=("$SDKPY" "$W/wire.py" "$front" "$old=old (sse)" "$new=new (mcp)")
    guard_start "$name"
    free "$front" "$old" "$new"
    server "$name-server-old" "$old" "${SERVER[@]}" "$old" --sse
    server "$name-server-new" "$new" "${SERVER[@]}" "$new"
    nginx_up "$name" "$front" "$old" "$new"
    run "$name-client-new-1" "${CLIENT[@]}" "http://$HOST:$front/sse" "new.example.test:$front"
    sleep 0.5
    run "$name-client-old" "${CLIENT[@]}" --sse "http://$HOST:$front/sse" "old.example.test:$front"
    sleep 0.5
    run "$name-client-new-2" "${CLIENT[@]}" "http://$HOST:$front/sse" "new.example.test:$front"
    nginx_down "$name"
}

ALL=(www-page upstreams-down sse-moved)

run_scenarios "tcpdump tshark ss nginx curl" -- "$@"

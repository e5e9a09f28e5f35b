#!/usr/bin/env bash
# mcptap ecosystem corpus, group "proxies5": real MCP traffic through reverse proxies that users deploy from PyPI and
# npm (the corpus had Debian's proxies, Node's http-proxy / http-proxy-middleware / @fastify/http-proxy and mitmproxy):
# proxy.py 2.4.10 (PyPI; its reverse proxy, `--enable-reverse-proxy`, with a route plugin of ours), Twisted 26.4.0's
# twisted.web.proxy.ReverseProxyResource (PyPI), http-proxy-3 2.0.1 (npm; the modern rewrite of http-proxy) and
# express-http-proxy 2.1.2 (npm, on express 5), in front of the official MCP SDK servers. Cleartext HTTP/1.1 on
# loopback (127.0.0.1, the group's ports 20010-20029), both hops in one capture (client <-> proxy on the front port,
# proxy <-> MCP server on the backend port).
#
#   sudo bash samples/gen/ecosystem/proxies5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/proxies5.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/proxies5-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/proxies5-<scenario>.pcap.txt):
#   proxypy-py          proxy.py reverse proxy (proxies5/pp_routes.py, defaults: --timeout 10) on 20010 -> Python SDK
#                       server on 20011; Python client, slow_count(60), then 20 s idle with its GET stream open
#   proxypy-ts          the same on 20012 -> TS SDK server on 20013; TS client, slow_count(60), 20 s idle (as run:
#                       initialize is answered 400, proxy.py adds a second Content-Length; the client stops)
#   proxypy-down        the same on 20026, nothing on the backend port 20027; Python client
#   twisted-py          Twisted ReverseProxyResource (proxies5/twisted_proxy.py) on 20014 -> Python SDK server on
#                       20015; Python client, slow_count(60), 20 s idle
#   twisted-ts          the same on 20016 -> TS SDK server on 20017; TS client, slow_count(60), 20 s idle
#   httpproxy3-ts       http-proxy-3 (proxies5/httpproxy3.mjs) on 20018 -> TS SDK server on 20019; TS client,
#                       slow_count(60), 20 s idle
#   httpproxy3-kill     the same on 20020 -> TS SDK server on 20021, killed (SIGKILL) 4 s after the client starts (mid
#                       slow_count); the TS client goes on alone (add, DELETE through the proxy's 502)
#   express-py          express-http-proxy (proxies5/express_proxy.mjs) on 20022 -> Python SDK server on 20023; Python
#                       client, slow_count(60), 20 s idle
#   express-decorated   express-http-proxy with a userResHeaderDecorator (buffers responses) on 20024 -> Python SDK
#                       server on 20025; Python client, slow_count(60), 20 s idle
#   express-down        express-http-proxy on 20028, nothing on the backend port 20029; TS client
#   express-ts          express-http-proxy (no decorator) on 20026 -> TS SDK server on 20027; TS client, slow_count(60),
#                       20 s idle (ports of proxypy-down, which runs before it and leaves them free; as run: the
#                       second request is answered 400 on a reused backend connection; the client stops)
#   proxypy-pyts        proxy.py on 20012 -> TS SDK server on 20013; the Python client (which spells the header
#                       `Content-Length`), slow_count(60), 20 s idle (ports of proxypy-ts, run before it)
#
# Every client run: initialize, tools/list, add(1,2), echo("hello"), slow_count(60) with a progressToken (60
# notifications/progress 0.1 s apart, about 6 s), [idle], add(40,2), close (DELETE for Streamable HTTP). Reused by
# path, not copied: ../proxies2/py_client.py (Python SDK mcp 2.3.0, `Client(url, mode="legacy")`),
# ../proxies2/ts_client.mjs and ../proxies2/ts-server.mjs (TS SDK 1.32.2, ../proxies2/node_modules), ../py_server.py in
# the sdks group's venv (sdks/.venv), ../proxies2/wire.py (the listing).
#
# Needs root (tcpdump), tcpdump, tshark, python3 with venv, node 20 + npm (http-proxy-3 declares node >= 22; it runs on
# node 20 here). First use makes proxies5/.venv (proxies5/requirements.txt: proxy.py, Twisted), proxies5/node_modules
# (proxies5/package-lock.json: http-proxy-3, express-http-proxy, express), sdks/.venv and proxies2/node_modules. All
# git-ignored (proxies5/.gitignore). Results and labels: samples/ecosystem/proxies5.md, samples/ecosystem/labels-proxies5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/proxies5"                                       # drivers, pins
P2="$ECO/proxies2"                                      # the proxies2 group's clients, TS server, listing (read only)
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs
VPY="$ECO/sdks/.venv/bin/python"
GROUP=proxies5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false DO_NOT_TRACK=1

setup() {
    setup_pysdk
    need_npm "$P2"
    need_npm "$W"
    need_venv "$W/.venv" "$W/requirements.txt" proxy
}

# the proxies' command lines: NAME FRONT BACK
proxypy()   { echo env "PYTHONPATH=$W" "PROXIES5_BACKEND=$3" "$W/.venv/bin/proxy" --hostname "$HOST" --port "$2" \
                  --enable-reverse-proxy --plugins pp_routes.McpRoute --num-workers 1 --num-acceptors 1; }
twistedp()  { echo "$W/.venv/bin/python" "$W/twisted_proxy.py" "$2" "$3"; }
httpproxy3() { echo node "$W/httpproxy3.mjs" "$2" "$3"; }
expressp()  { echo node "$W/express_proxy.mjs" "$2" "$3"; }
expressd()  { echo node "$W/express_proxy.mjs" "$2" "$3" --decorate; }

# proxied NAME FRONT BACK SERVER(py|ts|none) CLIENT(py|ts) SLOW HOLD KILL PROXY-CMD...: the MCP server on BACK (none:
# nothing listens there), the proxy on FRONT (watched with ss: no probe), the offline guard, a capture of both ports,
# one bounded client run (timeout 45 + SLOW/10 + HOLD) through the proxy, the server killed KILL s after the client
# starts (0: not), everything down.
proxied() {
    local name=$1 front=$2 back=$3 srv=$4 cli=$5 slow=$6 hold=$7 kill_after=$8; shift 8
    local rc=0 url="http://$HOST:$front/mcp" bound=$((45 + slow / 10 + hold)) cmd srv_pid="" proxy_pid cpid
    local noproxy=(env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY -u NO_PROXY)
    free "$front" "$back"
    case $srv in
        py)   server "$name-server" "$back" "$VPY" "$ECO/py_server.py" "$back" --name "proxies5-py-server"; srv_pid=$LAST_PID ;;
        ts)   server "$name-server" "$back" node "$P2/ts-server.mjs" "$back"; srv_pid=$LAST_PID ;;
        none) ;;
    esac
    bg "$name-proxy" "$@"
    proxy_pid=$LAST_PID
    listening "$front"
    case $cli in
        py) cmd=("${noproxy[@]}" "$VPY" "$P2/py_client.py" "$url" --slow "$slow" --hold "$hold") ;;
        ts) cmd=("${noproxy[@]}" node "$P2/ts_client.mjs" "$url" "$slow" "$hold") ;;
    esac
    DESCRIBE=("$VPY" "$P2/wire.py" "$front" "$back")
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
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the proxy helpers print a word list without spaces inside words
scenario_proxypy-py()        { proxied proxypy-py 20010 20011 py py 60 20 0 $(proxypy x 20010 20011); }
scenario_proxypy-ts()        { proxied proxypy-ts 20012 20013 ts ts 60 20 0 $(proxypy x 20012 20013); }
scenario_proxypy-down()      { proxied proxypy-down 20026 20027 none py 60 0 0 $(proxypy x 20026 20027); }
scenario_twisted-py()        { proxied twisted-py 20014 20015 py py 60 20 0 $(twistedp x 20014 20015); }
scenario_twisted-ts()        { proxied twisted-ts 20016 20017 ts ts 60 20 0 $(twistedp x 20016 20017); }
scenario_httpproxy3-ts()     { proxied httpproxy3-ts 20018 20019 ts ts 60 20 0 $(httpproxy3 x 20018 20019); }
scenario_httpproxy3-kill()   { proxied httpproxy3-kill 20020 20021 ts ts 60 0 4 $(httpproxy3 x 20020 20021); }
scenario_express-py()        { proxied express-py 20022 20023 py py 60 20 0 $(expressp x 20022 20023); }
scenario_express-decorated() { proxied express-decorated 20024 20025 py py 60 20 0 $(expressd x 20024 20025); }
scenario_express-down()      { proxied express-down 20028 20029 none ts 60 0 0 $(expressp x 20028 20029); }
scenario_express-ts()        { proxied express-ts 20026 20027 ts ts 60 20 0 $(expressp x 20026 20027); }
scenario_proxypy-pyts()      { proxied proxypy-pyts 20012 20013 ts py 60 20 0 $(proxypy x 20012 20013); }

ALL=(proxypy-py proxypy-ts proxypy-down twisted-py twisted-ts httpproxy3-ts httpproxy3-kill express-py express-decorated
     express-down express-ts proxypy-pyts)

run_scenarios "tcpdump tshark node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations6": the production situations of rules that fired least on real traffic,
# with real implementations and their defaults, every hop in one capture. Our code is only the harness (start,
# SIGKILL, restart) and the application's calls; the proxies and servers are unmodified packages.
#  - MCP-5XX-CASCADE: an upstream MCP server SIGKILLed behind a reverse proxy other than nginx (nginx, squid, http-proxy
#    and agentgateway are in situations, gateways, proxies4, proxies5, gateways6), while the client's application loop
#    keeps calling once a second; 8 s later the same server command starts again on the same port (a restart).
#    HAProxy (Debian 12 haproxy 2.6.12, situations6/haproxy.cfg.in: Debian's shipped defaults) without and with its
#    TCP health check, Caddy (Debian 12 caddy 2.6.2, situations6/Caddyfile.in: a plain reverse_proxy).
#  - MCP-SSE-IDLE: a real server whose standalone GET stream carries no keep-alive comment: kubernetes-mcp-server 0.0.67
#    (npm, a Go binary built on the official go-sdk 1.8.0; its kubeconfig names a cluster on 127.0.0.1:20549, where
#    nothing listens and which is not captured), behind nginx (proxy_read_timeout 60 s, its default) and behind HAProxy
#    (timeout server/client 50 s, Debian's), the client idle past both timers.
# Clients: the official TS SDK client 1.32.2 (../situations/ts_client.mjs by path: `retry N`, `idle S`) and the
# official Python SDK client mcp 2.3.0 (situations6/py_client.py, `Client(URL, mode="legacy")`, the sdks group's venv).
# Servers besides kubernetes-mcp-server: the situations group's TS SDK 1.32.2 server (../situations/ts-server.mjs) and
# Python SDK mcp 2.3.0 server (../situations/py_server.py), by path.
# Captured on loopback (127.0.0.1, ports 20530-20549 only):
#   cascade-haproxy-py    HAProxy 20530 -> Python SDK server 20531; Python client retry 25; server killed 5 s in,
#                         restarted 8 s later
#   cascade-haproxy-check-ts  HAProxy 20532 (`server ... check`) -> TS SDK server 20533; TS client retry 25; the same
#   cascade-caddy-ts      Caddy 20534 -> TS SDK server 20535; TS client retry 25; the same
#   cascade-caddy-py      Caddy 20540 -> Python SDK server 20541; Python client retry 25; the same
#   idle-go-nginx-ts      nginx 20536 -> kubernetes-mcp-server 20537; TS client idle 75 (then add(40,2): a tool this
#                         server does not have, answered with a JSON-RPC error), close
#   idle-go-haproxy-py    HAProxy 20538 -> kubernetes-mcp-server 20539; Python client idle 65, then
#                         configuration_view(minified), close
#   idle-go-nginx-py      nginx 20542 -> kubernetes-mcp-server 20543; Python client idle 75, then configuration_view
#   idle-go-haproxy-ts    HAProxy 20544 -> kubernetes-mcp-server 20545; TS client idle 65
# (port 20549: the kubeconfig's cluster, never listened on.)
#
#   sudo bash samples/gen/ecosystem/situations6.sh             # every scenario (about 10 minutes)
#   sudo bash samples/gen/ecosystem/situations6.sh SCENARIO..  # some of them (distinct ports: separate runs may go
#                                                              # in parallel)
#
# Captures samples/ecosystem/situations6-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations6-<scenario>
# .pcap.txt (../proxies2/wire.py FRONT BACK, run by the sdks group's venv python). Each client run is bounded
# (timeout); every process is stopped after its scenario; a guard capture on every interface (lib.sh
# guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile.
#
# Needs root (tcpdump), tcpdump, tshark, ss, node 20 + npm, nginx, haproxy, caddy (Debian 12 packages; their packaged
# services are not used). First use: the sdks group's venv (setup_pysdk), ../situations/node_modules, and
# situations6/node_modules (`npm ci` of situations6/package-lock.json: kubernetes-mcp-server and its linux-amd64
# binary). Results and labels: samples/ecosystem/situations6.md, samples/ecosystem/labels-situations6.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/situations6"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations6
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

SDKPY="$ECO/sdks/.venv/bin/python"
TS_SERVER=(node "$ECO/situations/ts-server.mjs")        # PORT
PY_SERVER=("$SDKPY" "$ECO/situations/py_server.py")     # PORT
KUBE=("$W/node_modules/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64" --bind-address "$HOST"
      --kubeconfig "$RUN/kubeconfig" --port)            # PORT
TS_CLIENT=(node "$ECO/situations/ts_client.mjs")        # URL MODE ARG
PY_CLIENT=("$SDKPY" "$W/py_client.py")                  # URL MODE ARGS...

setup() {
    setup_pysdk
    need_npm "$ECO/situations"
    need_npm "$W"
    cat >"$RUN/kubeconfig" <<KUBE
apiVersion: v1
kind: Config
clusters:
- name: offline
  cluster:
    server: https://$HOST:20549
    insecure-skip-tls-verify: true
contexts:
- name: offline
  context:
    cluster: offline
    user: offline
    namespace: default
current-context: offline
users:
- name: offline
  user:
    token: offline-token
KUBE
}
U() { echo "http://$HOST:$1/mcp"; }

# down: SIGINT to each process group started by bg, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# proxy_up NAME KIND FRONT BACK [CHECK]: KIND nginx, haproxy or caddy from its template under run/KIND-NAME, in the
# foreground (bg); waits until FRONT listens (the socket table, not a probe).
proxy_up() {
    local name=$1 kind=$2 front=$3 back=$4 check=${5:-} d="$RUN/$2-$1"
    rm -rf "$d"; mkdir -p "$d/tmp"
    case $kind in
        nginx)   sed -e "s/@FRONT@/$front/g" -e "s/@BACK@/$back/g" "$W/nginx.conf.in" >"$d/nginx.conf"
                 bg "$name-nginx" nginx -p "$d" -c nginx.conf -e stderr ;;
        haproxy) sed -e "s/@FRONT@/$front/g" -e "s/@BACK@/$back/g" -e "s/@CHECK@/$check/g" "$W/haproxy.cfg.in" >"$d/haproxy.cfg"
                 bg "$name-haproxy" haproxy -db -f "$d/haproxy.cfg" ;;
        caddy)   sed -e "s/@FRONT@/$front/g" -e "s/@BACK@/$back/g" "$W/Caddyfile.in" >"$d/Caddyfile"
                 bg "$name-caddy" env HOME="$d" XDG_DATA_HOME="$d" XDG_CONFIG_HOME="$d" \
                     caddy run --adapter caddyfile --config "$d/Caddyfile" ;;
    esac
    listening "$front"
}
# finish NAME: capture stop and listing, everything down, guard off, the logs' tails.
finish() {
    local name=$1 f
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
# cascade NAME KIND FRONT BACK SERVER-KIND CLIENT-KIND [CHECK]: the server (ts or py) on BACK behind the proxy on FRONT;
# the client (ts or py) runs `retry 25` in the background; 5 s after it starts the server is SIGKILLed (its process
# group), 8 s later the same command starts again on the same port.
cascade() {
    local name=$1 kind=$2 front=$3 back=$4 skind=$5 ckind=$6 check=${7:-} cpid srv srvcmd clicmd
    case $skind in ts) srvcmd=("${TS_SERVER[@]}" "$back") ;; py) srvcmd=("${PY_SERVER[@]}" "$back") ;; esac
    case $ckind in ts) clicmd=("${TS_CLIENT[@]}" "$(U "$front")" retry 25) ;; py) clicmd=("${PY_CLIENT[@]}" "$(U "$front")" retry 25) ;; esac
    DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$front" "$back")
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "${srvcmd[@]}"; srv=$LAST_PID
    listening "$back"
    proxy_up "$name" "$kind" "$front" "$back" "$check"
    sleep 3   # HAProxy's first health checks (check scenario) before the capture starts: the capture opens on a
              # server known up
    capture_start "$name" "$front" "$back"
    timeout 75 "${clicmd[@]}" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 5
    stop "$srv" KILL
    echo "   server killed; 8 s down"
    sleep 8
    bg "$name-server" "${srvcmd[@]}"
    listening "$back"
    echo "   server up again"
    wait "$cpid" || echo "   ($name client exited with $?)"
    finish "$name"
}
# idle NAME KIND FRONT BACK CLIENT-CMD...: kubernetes-mcp-server on BACK behind the proxy on FRONT, one bounded
# client run (120 s).
idle() {
    local name=$1 kind=$2 front=$3 back=$4; shift 4
    DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$front" "$back")
    guard_start "$name"
    free "$front" "$back"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" env -C "$RUN" "${KUBE[@]}" "$back"
    listening "$back"
    proxy_up "$name" "$kind" "$front" "$back"
    sleep 1
    capture_start "$name" "$front" "$back"
    timeout 120 "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_cascade-haproxy-py() { cascade cascade-haproxy-py haproxy 20530 20531 py py; }
scenario_cascade-haproxy-check-ts() { cascade cascade-haproxy-check-ts haproxy 20532 20533 ts ts " check"; }
scenario_cascade-caddy-ts() { cascade cascade-caddy-ts caddy 20534 20535 ts ts; }
scenario_cascade-caddy-py() { cascade cascade-caddy-py caddy 20540 20541 py py; }
CV=(configuration_view '{"minified": true}')
scenario_idle-go-nginx-ts() { idle idle-go-nginx-ts nginx 20536 20537 "${TS_CLIENT[@]}" "$(U 20536)" idle 75; }
scenario_idle-go-haproxy-py() { idle idle-go-haproxy-py haproxy 20538 20539 "${PY_CLIENT[@]}" "$(U 20538)" idle 65 "${CV[@]}"; }
scenario_idle-go-nginx-py() { idle idle-go-nginx-py nginx 20542 20543 "${PY_CLIENT[@]}" "$(U 20542)" idle 75 "${CV[@]}"; }
scenario_idle-go-haproxy-ts() { idle idle-go-haproxy-ts haproxy 20544 20545 "${TS_CLIENT[@]}" "$(U 20544)" idle 65; }

ALL=(cascade-haproxy-py cascade-haproxy-check-ts cascade-caddy-ts cascade-caddy-py idle-go-nginx-ts idle-go-haproxy-py
     idle-go-nginx-py idle-go-haproxy-ts)

run_scenarios "tcpdump tshark ss node nginx haproxy caddy" -- "$@"

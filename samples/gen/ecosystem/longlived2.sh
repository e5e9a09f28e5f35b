#!/usr/bin/env bash
# mcptap ecosystem corpus, group "longlived2": long-lived MCP sessions (about 3.5 minutes: a call after 45 s, a silent
# 70 s tool call after 40 s more, a last call after 40 s more) through reverse proxies with their DEFAULT timers, where
# the idle standalone GET stream and a slow tool call meet the proxy's read/idle timeout. The longlived group did
# nginx; this group does the other Debian proxies. Captured on loopback (127.0.0.1, ports 20250-20269):
#   - **HAProxy** (Debian 12 haproxy 2.6.12, longlived2/haproxy.cfg.in: Debian's shipped `defaults`, timeout client
#     and timeout server 50 s);
#   - **Apache httpd** mod_proxy_http (Debian 12 apache2 2.4.71, longlived2/apache2.conf.in: Debian's Timeout 300,
#     no ProxyTimeout, KeepAliveTimeout 5);
#   - **Caddy** reverse_proxy (Debian 12 caddy 2.6.2, longlived2/Caddyfile.in: no upstream timeouts by default);
#   - **lighttpd** mod_proxy (Debian 12 lighttpd 1.4.69, longlived2/lighttpd.conf.in: its defaults);
#   - servers: the official **Python SDK** server (mcp 2.3.0, the sdks group's venv; longlived2/py_server.py: SSE
#     replies and no event store (its defaults), or the resume group's event store, or json_response=True) and the
#     official **TypeScript SDK** server (1.32.2 of ../proxies2, longlived2/ts-server.mjs: no event store), both with
#     a silent wait(seconds) tool besides the usual ones;
#   - clients: the official Python SDK client (longlived2/py_driver.py) and TS SDK client (longlived2/ts_driver.mjs),
#     one client object per run, no retry or re-initialize of the driver's own.
# Envoy and Traefik have no Debian 12 package (nor a PyPI/npm one): left out.
#
#   sudo bash samples/gen/ecosystem/longlived2.sh             # every scenario, one after the other (about 30 min)
#   sudo bash samples/gen/ecosystem/longlived2.sh SCENARIO..  # some of them (scenarios use distinct ports: separate
#                                                             # runs of this script may go in parallel, as here)
#
# Scenarios (capture samples/ecosystem/longlived2-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/longlived2-<scenario>.pcap.txt), FRONT (proxy) -> BACK (server):
#   haproxy-py-py       20250 -> 20251  Python client -> HAProxy -> Python SDK server (no event store)
#   haproxy-ts-ts       20252 -> 20253  TS client -> HAProxy -> TS SDK server
#   haproxy-pyjson-py   20254 -> 20255  Python client -> HAProxy -> Python SDK server, json_response=True
#   apache-py-py        20256 -> 20257  Python client -> Apache -> Python SDK server
#   apache-ts-ts        20258 -> 20259  TS client -> Apache -> TS SDK server
#   caddy-py-ts         20260 -> 20261  TS client -> Caddy -> Python SDK server
#   lighttpd-ts-py      20262 -> 20263  Python client -> lighttpd -> TS SDK server
#   haproxy-pystore-py  20264 -> 20265  Python client -> HAProxy -> Python SDK server with an event store
#   caddy-ts-py         20266 -> 20267  Python client -> Caddy -> TS SDK server
#   caddy-py-py         20268 -> 20269  Python client -> Caddy -> Python SDK server
#
# Each client run is bounded (280 s inside the clients, timeout 300 here). Each server and proxy is up before its
# capture starts (its port seen listening in the socket table, no probe) and stopped after it. No network beyond
# 127.0.0.1: DO_NOT_TRACK=1; a guard capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../proxies2/wire.py), ss, python3 (3.11) with venv, node 20 + npm,
# haproxy, apache2, caddy, lighttpd (apt-get install haproxy apache2 caddy lighttpd; their packaged services are not
# used). First use makes the sdks group's venv sdks/.venv and proxies2/node_modules (`npm ci`). Results and labels:
# samples/ecosystem/longlived2.md, samples/ecosystem/labels-longlived2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/longlived2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, proxy prefixes, the offline guard's captures
GROUP=longlived2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, capture_start/stop, guard, run_scenarios, listening, free
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0
PY_SERVER=("$SDKPY" "$W/py_server.py")                  # PORT nostore|store|json
PY_DRIVER=("$SDKPY" "$W/py_driver.py")                  # URL
TS_SERVER=(node "$W/ts-server.mjs")                     # PORT
TS_DRIVER=(node "$W/ts_driver.mjs")                     # URL

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
}

down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

# start_proxy KIND NAME FRONT BACK: the proxy's template filled in under RUN/KIND-NAME, started in the foreground.
start_proxy() {
    local kind=$1 name=$2 front=$3 back=$4 prefix="$RUN/$1-$2" conf
    rm -rf "$prefix"; mkdir -p "$prefix"; chmod 755 "$prefix"
    case $kind in
        haproxy) conf="$prefix/haproxy.cfg";   tmpl="$W/haproxy.cfg.in" ;;
        apache) conf="$prefix/apache2.conf";   tmpl="$W/apache2.conf.in" ;;
        caddy) conf="$prefix/Caddyfile";       tmpl="$W/Caddyfile.in" ;;
        lighttpd) conf="$prefix/lighttpd.conf"; tmpl="$W/lighttpd.conf.in" ;;
    esac
    sed -e "s/@FRONT@/$front/g" -e "s/@BACK@/$back/g" -e "s|@PREFIX@|$prefix|g" "$tmpl" >"$conf"
    case $kind in
        haproxy) bg "$name-haproxy" haproxy -db -f "$conf" ;;
        apache) bg "$name-apache" env APACHE_RUN_DIR="$prefix" apache2 -d "$prefix" -f "$conf" -DFOREGROUND ;;
        caddy) bg "$name-caddy" env HOME="$prefix" XDG_DATA_HOME="$prefix" XDG_CONFIG_HOME="$prefix" \
                   caddy run --adapter caddyfile --config "$conf" ;;
        lighttpd) bg "$name-lighttpd" lighttpd -D -f "$conf" ;;
    esac
}

# longlived2 NAME PROXY FRONT BACK SERVER-CMD... -- CLIENT-CMD...: guard on, the server on BACK and the proxy on FRONT,
# capture of both ports, one bounded client run (timeout 300), capture stop and listing, everything down, guard off.
longlived2() {
    local name=$1 kind=$2 front=$3 back=$4 rc=0; shift 4
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/proxies2/wire.py" "$front" "$back")
    guard_start "$name"
    free "$front" "$back"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$back"
    start_proxy "$kind" "$name" "$front" "$back"
    listening "$front"
    sleep 2
    capture_start "$name" "$front" "$back"
    timeout 300 "$@" >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-160 | tail -25 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-160 | tail -8 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1/mcp"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_haproxy-py-py() { longlived2 haproxy-py-py haproxy 20250 20251 "${PY_SERVER[@]}" 20251 nostore -- "${PY_DRIVER[@]}" "$(U 20250)"; }
scenario_haproxy-ts-ts() { longlived2 haproxy-ts-ts haproxy 20252 20253 "${TS_SERVER[@]}" 20253 -- "${TS_DRIVER[@]}" "$(U 20252)"; }
scenario_haproxy-pyjson-py() { longlived2 haproxy-pyjson-py haproxy 20254 20255 "${PY_SERVER[@]}" 20255 json -- "${PY_DRIVER[@]}" "$(U 20254)"; }
scenario_apache-py-py() { longlived2 apache-py-py apache 20256 20257 "${PY_SERVER[@]}" 20257 nostore -- "${PY_DRIVER[@]}" "$(U 20256)"; }
scenario_apache-ts-ts() { longlived2 apache-ts-ts apache 20258 20259 "${TS_SERVER[@]}" 20259 -- "${TS_DRIVER[@]}" "$(U 20258)"; }
scenario_caddy-py-ts() { longlived2 caddy-py-ts caddy 20260 20261 "${PY_SERVER[@]}" 20261 nostore -- "${TS_DRIVER[@]}" "$(U 20260)"; }
scenario_lighttpd-ts-py() { longlived2 lighttpd-ts-py lighttpd 20262 20263 "${TS_SERVER[@]}" 20263 -- "${PY_DRIVER[@]}" "$(U 20262)"; }
scenario_haproxy-pystore-py() { longlived2 haproxy-pystore-py haproxy 20264 20265 "${PY_SERVER[@]}" 20265 store -- "${PY_DRIVER[@]}" "$(U 20264)"; }
scenario_caddy-ts-py() { longlived2 caddy-ts-py caddy 20266 20267 "${TS_SERVER[@]}" 20267 -- "${PY_DRIVER[@]}" "$(U 20266)"; }
scenario_caddy-py-py() { longlived2 caddy-py-py caddy 20268 20269 "${PY_SERVER[@]}" 20269 nostore -- "${PY_DRIVER[@]}" "$(U 20268)"; }

ALL=(haproxy-py-py haproxy-ts-ts haproxy-pyjson-py apache-py-py apache-ts-ts caddy-py-ts lighttpd-ts-py haproxy-pystore-py
     caddy-ts-py caddy-py-py)

run_scenarios "tcpdump tshark ss node npm haproxy apache2 caddy lighttpd" -- "$@"

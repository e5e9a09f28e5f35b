#!/usr/bin/env bash
# mcptap ecosystem corpus, group "proxies": real MCP traffic through the reverse proxies people put in front of MCP
# servers, Debian 12's packages, each configured as its documentation or the usual MCP deployment snippet says
# (nothing tuned for the analyzer): TLS with a self-signed certificate for 127.0.0.1, HTTP/2 to the client where the
# proxy offers it, HTTP/1.1 to the backend. Captured on loopback (127.0.0.1, ports 18805-18812 only), both hops in
# one capture (client <-> proxy over TLS, proxy <-> backend in clear), with the client's TLS key log.
#
#   sudo bash samples/gen/ecosystem/proxies.sh             # every scenario
#   sudo bash samples/gen/ecosystem/proxies.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/proxies-<scenario>.pcap, key log proxies-<scenario>.keys beside it, listing
# samples/gen/wire/ecosystem/proxies-<scenario>.pcap.txt):
#   caddy-encode       Caddy 2.6 (proxies/Caddyfile: `encode zstd gzip` + `reverse_proxy`, TLS, h2) on 18805 ->
#                      Python SDK server (uvicorn, HTTP/1.1) on 18806; Python SDK client that accepts zstd
#   haproxy-h2         HAProxy 2.6 (proxies/haproxy.cfg: mode http, Debian's/the docs' default timeouts: client and
#                      server 50 s, no `timeout tunnel`; `bind ... ssl crt ... alpn h2,http/1.1`) on 18807 -> TS SDK
#                      server (express, HTTP/1.1; no keep-alives on its GET stream) on 18808; the Python client stays
#                      connected 60 s idle after its calls (--hold 60), so the 50 s timeouts could act on the GET
#                      stream, then makes one more call and closes (run bounded at 120 s)
#   haproxy-h2-slow    the same HAProxy (second frontend 18813) -> TS SDK server on 18814; after its calls the client
#                      calls wait(55), a tool that sends nothing for 55 s (longer than `timeout server`), gives it up
#                      after 65 s if need be, calls add(2,3), closes (run bounded at 115 s)
#   apache-deflate     Apache 2.4 (proxies/apache-deflate.conf: mod_ssl, `Protocols h2 http/1.1`, ProxyPass,
#                      `AddOutputFilterByType DEFLATE ... application/json text/event-stream`) on 18809 -> Python SDK
#                      server on 18810
#   apache-deflate-ts  the same Apache on 18811 -> TS SDK server on 18812 (its replies lack `no-transform`)
#
# Each client: the Python SDK (mcp 2.3.0) client, mode="legacy" (initialize: a stateful session with its standalone
# GET stream), httpx2 with http2=True, key log through SSLKEYLOGFILE (proxies/proxies_py.py): tools/list, add(1,2),
# echo("hello"), slow_count(3) with a progressToken (3 notifications/progress 0.1 s apart), add(40,2), close (DELETE).
#
# Needs root (tcpdump), tcpdump, tshark (the listing, proxies/wire.py), openssl (a self-signed certificate for
# 127.0.0.1 in proxies/certs), python3 with venv, node 20 + npm, and the Debian packages caddy, haproxy, apache2
# (`apt-get install -y caddy haproxy apache2`). The proxies run as non-daemon processes of our own, with their
# config, pid and log paths under proxies/ (run/ for scratch); the system services and /etc are left alone (stop
# them first if the packages' postinst started them: they are not part of any capture). First use makes
# proxies/.venv (proxies/requirements.txt) and proxies/node_modules (`npm ci`). All git-ignored (proxies/.gitignore).
# Results and labels: samples/ecosystem/proxies.md, samples/ecosystem/labels-proxies.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/proxies"                                        # harness code, configs, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, pids, Caddy's storage
VPY="$W/.venv/bin/python"
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"
GROUP=proxies
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    cat "$CERT" "$KEY" >"$W/certs/haproxy.pem"          # HAProxy's `crt` wants certificate and key in one file
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}

# keys NAME: the key log of capture NAME (started afresh: it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }

# proxied NAME FRONT BACKEND BACKEND-KIND(py|ts) HOLD PROXY-CMD...: the backend on BACKEND, the proxy (started from
# proxies/, so its config's relative paths resolve) listening on FRONT, capture of both ports, the Python client
# (--hold HOLD, --slow $SLOW; bounded: timeout 60 + HOLD + SLOW) through the proxy, stop, everything down.
proxied() {
    local name=$1 front=$2 back=$3 kind=$4 hold=$5; shift 5
    local k rc=0 slow=${SLOW:-0}
    if [ "$kind" = py ]; then
        server "$name-backend" "$back" "$VPY" "$W/proxies_py.py" server --port "$back"
    else
        server "$name-backend" "$back" node "$W/ts-server.mjs" "$back"
    fi
    cd "$W"
    server "$name-proxy" "$front" "$@"
    cd - >/dev/null
    DESCRIBE=("$VPY" "$W/wire.py" "$front" "$back")
    capture_start "$name" "$front" "$back"
    k="$(keys "$name")"
    timeout $((60 + hold + slow)) env SSLKEYLOGFILE="$k" "$VPY" "$W/proxies_py.py" client \
        --url "https://$HOST:$front/mcp" --ca "$CERT" --hold "$hold" --slow "$slow" >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    chmod 644 "$k"
    capture_stop "$name"
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_caddy-encode() {
    mkdir -p "$RUN/caddy"
    XDG_DATA_HOME="$RUN/caddy" XDG_CONFIG_HOME="$RUN/caddy" \
        proxied caddy-encode 18805 18806 py 0 caddy run --config Caddyfile --adapter caddyfile
}

scenario_haproxy-h2() { proxied haproxy-h2 18807 18808 ts 60 haproxy -f haproxy.cfg -db; }

scenario_haproxy-h2-slow() { SLOW=55 proxied haproxy-h2-slow 18813 18814 ts 0 haproxy -f haproxy.cfg -db; }

scenario_apache-deflate() { proxied apache-deflate 18809 18810 py 0 apache2 -d "$W" -f apache-deflate.conf -DFOREGROUND; }

scenario_apache-deflate-ts() { proxied apache-deflate-ts 18811 18812 ts 0 apache2 -d "$W" -f apache-deflate.conf -DFOREGROUND; }

ALL=(caddy-encode haproxy-h2 haproxy-h2-slow apache-deflate apache-deflate-ts)

run_scenarios "tcpdump tshark openssl node npm caddy haproxy apache2" -- "$@"

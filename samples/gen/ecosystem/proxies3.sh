#!/usr/bin/env bash
# mcptap ecosystem corpus, group "proxies3": real MCP traffic through the HTTP/2-capable and caching reverse proxies of
# Debian 12 the corpus lacked, nghttpx (nghttp2-proxy 1.52), h2o 2.2.5 and Apache Traffic Server 9.2, each run as its
# documentation sets up a reverse proxy, in front of the official MCP SDK servers. HTTP/2 (h2c with prior knowledge,
# h2 over TLS) or HTTP/1.1 on the front hop, HTTP/1.1 on the backend hop, captured on loopback (127.0.0.1, ports
# 19370-19389 only), both hops in one capture (client <-> proxy on the front port, proxy <-> MCP server on the
# backend port); the TLS captures have the client's key log beside them.
#
#   sudo bash samples/gen/ecosystem/proxies3.sh             # every scenario
#   sudo bash samples/gen/ecosystem/proxies3.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/proxies3-<scenario>.pcap, key log proxies3-<scenario>.keys for the TLS ones,
# listing samples/gen/wire/ecosystem/proxies3-<scenario>.pcap.txt):
#   nghttpx-h2c     nghttpx (proxies3/nghttpx-clear.conf: cleartext frontend, `no-tls`) on 19370 -> Python SDK server
#                   (Streamable HTTP, stateful) on 19371; Python SDK client over httpx2 h2c with prior knowledge
#   nghttpx-h1      the same nghttpx and server; Python SDK client over httpx2's default HTTP/1.1
#   nghttpx-tls     nghttpx (proxies3/nghttpx-tls.conf: TLS frontend, ALPN h2) on 19372 -> Python SDK server on 19373;
#                   Python SDK client over httpx2 h2 (TLS, the self-signed certificate trusted, SSLKEYLOGFILE)
#   h2o             h2o (proxies3/h2o.conf: proxy.reverse.url, defaults) on 19374 -> TS SDK server on 19375; TS SDK
#                   client (Node fetch, HTTP/1.1), slow_count(60), then 40 s idle with the GET stream open
#   h2o-h2c         the same h2o -> TS SDK server; Python SDK client over httpx2 h2c with prior knowledge, slow_count(60),
#                   then 20 s idle
#   h2o-legacy      h2o (proxies3/h2o-legacy.conf, the same on 19376) -> Python SDK legacy HTTP+SSE app on 19377;
#                   Python SDK sse_client (HTTP/1.1)
#   h2o-tls         h2o (proxies3/h2o-tls.conf: the same behind a TLS listener, ALPN h2) on 19378 -> TS SDK server on
#                   19379; Python SDK client over httpx2 h2 (TLS, SSLKEYLOGFILE)
#   ats             Apache Traffic Server (Debian's records.config + proxies3/ats-records.config, proxies3/ats-remap.config)
#                   on 19380 -> Python SDK server on 19381; TS SDK client (HTTP/1.1), slow_count(60), then 40 s idle
#   ats-legacy      the same ATS on 19382 -> Python SDK legacy HTTP+SSE app on 19383; Python SDK sse_client
#
# Every client run: initialize, tools/list, add(1,2), echo("hello"), slow_count(60) with a progressToken (60
# notifications/progress 0.1 s apart, about 6 s), [idle], add(40,2), close (DELETE for Streamable HTTP). Clients:
# ../proxies2/py_client.py (HTTP/1.1, and --sse), proxies3/py_client.py (the same run over an h2c or h2 httpx2 client)
# and ../proxies2/ts_client.mjs. Servers: ../py_server.py (Python SDK MCPServer, uvicorn; --sse the legacy app) in the
# sdks group's venv, and ../proxies2/ts-server.mjs (TS SDK 1.32.2 on express) with ../proxies2/node_modules.
#
# Needs root (tcpdump), tcpdump, tshark (the listing, proxies3/wire.py), openssl (a self-signed certificate for
# 127.0.0.1 into proxies3/run/certs), python3 with venv, node 20 + npm, and the Debian packages nghttp2-proxy, h2o and
# trafficserver (`apt-get install -y nghttp2-proxy h2o trafficserver`; their postinst does not start the services
# where policy-rc.d forbids it; if it did, stop them: they are not part of any capture). The proxies run as
# foreground processes of our own with their config from proxies3/ and their logs, pid, cache and runtime files
# under proxies3/run/; /etc and the system services are left alone (ATS's runroot copies Debian's
# /etc/trafficserver, reading it only). First use makes sdks/.venv, proxies3/.venv (proxies3/requirements.txt) and
# proxies2/node_modules (`npm ci`). All git-ignored. Results and labels: samples/ecosystem/proxies3.md,
# samples/ecosystem/labels-proxies3.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/proxies3"                                       # configs, the h2 client, listing
P2="$ECO/proxies2"                                      # the proxies2 group's clients and TS server (read only)
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, certificates, ATS runroots
SPY="$ECO/sdks/.venv/bin/python"                        # servers and the HTTP/1.1 Python client
HPY="$W/.venv/bin/python"                               # the Python client over h2c / h2 (needs h2)
CERT="$RUN/certs/cert.pem"
KEY="$RUN/certs/key.pem"
GROUP=proxies3
DESCRIBE=()                                             # set per scenario: wire.py needs the ports and the front's protocol
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, capture_start/stop, guard_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
# No update checks or telemetry from the tools run here (npm's update notifier; the others have none).
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false DO_NOT_TRACK=1

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$P2"
    [ -s "$CERT" ] || { mkdir -p "$RUN/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
}

# keys NAME: the key log of capture NAME, started afresh (it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }

# proxied NAME FRONT BACK SERVER(py|py-sse|ts) CLIENT(py|py-sse|py-h2c|py-h2|ts) SLOW HOLD PROXY-CMD...: the MCP
# server on BACK, the proxy (PROXY-CMD, in the foreground, started from proxies3/) on FRONT, the offline guard, a
# capture of both ports, one client run through the proxy (slow_count(SLOW), HOLD s idle; bounded: timeout 45 +
# SLOW/10 + HOLD), capture stop, everything down.
proxied() {
    local name=$1 front=$2 back=$3 srv=$4 cli=$5 slow=$6 hold=$7; shift 7
    local rc=0 url="http://$HOST:$front/mcp" bound=$((45 + slow / 10 + hold)) cmd mode=h1
    free "$front" "$back"
    rm -f "$CAP/$GROUP-$name.keys"
    case $srv in
        py)     server "$name-server" "$back" "$SPY" "$ECO/py_server.py" "$back" --name "proxies3-py-server" ;;
        py-sse) server "$name-server" "$back" "$SPY" "$ECO/py_server.py" "$back" --name "proxies3-py-server" --sse ;;
        ts)     server "$name-server" "$back" node "$P2/ts-server.mjs" "$back" ;;
    esac
    cd "$W"
    bg "$name-proxy" "$@"
    cd - >/dev/null
    listening "$front"                                  # watched in the socket table: no probe through the proxy
    case $cli in
        py)     cmd=("$SPY" "$P2/py_client.py" "$url" --slow "$slow" --hold "$hold") ;;
        py-sse) cmd=("$SPY" "$P2/py_client.py" "http://$HOST:$front/sse" --sse --slow "$slow" --hold "$hold") ;;
        py-h2c) cmd=("$HPY" "$W/py_client.py" "$url" --h2c --slow "$slow" --hold "$hold"); mode=h2c ;;
        py-h2)  cmd=(env "SSLKEYLOGFILE=$(keys "$name")" "$HPY" "$W/py_client.py" "https://$HOST:$front/mcp" --ca "$CERT"
                     --slow "$slow" --hold "$hold"); mode=tls ;;
        ts)     cmd=(node "$P2/ts_client.mjs" "$url" "$slow" "$hold") ;;
    esac
    DESCRIBE=("$HPY" "$W/wire.py" "$mode" "$front" "$back")
    guard_start "$name"
    capture_start "$name" "$front" "$back"
    timeout "$bound" "${cmd[@]}" >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    [ ! -f "$CAP/$GROUP-$name.keys" ] || chmod 644 "$CAP/$GROUP-$name.keys"
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}

nghttpx_cmd() { echo nghttpx "--conf=$W/$1"; }              # nghttpx_cmd CONF
h2o_cmd() { echo h2o -m master -c "$W/$1"; }                # h2o_cmd CONF: in the foreground (master mode, no daemon)
# ats_cmd NAME FRONT: a runroot of our own in run/ats-NAME (Debian's /etc/trafficserver copied, then
# proxies3/ats-records.config appended with the port, proxies3/ats-remap.config, a 64 MB cache file there), and
# traffic_server itself in the foreground (no traffic_manager).
ats_cmd() {
    local d="$RUN/ats-$1"
    rm -rf "$d"
    mkdir -p "$d/etc" "$d/log" "$d/run" "$d/cache"
    cp -r /etc/trafficserver/. "$d/etc/"
    sed "s/@FRONT@/$2/" "$W/ats-records.config" >>"$d/etc/records.config"
    cp "$W/ats-remap.config" "$d/etc/remap.config"
    echo "$d/cache 64M" >"$d/etc/storage.config"
    cat >"$d/runroot.yaml" <<YAML
prefix: $d
exec_prefix: /usr
bindir: /usr/bin
sbindir: /usr/sbin
sysconfdir: $d/etc
datadir: $d/cache
includedir: /usr/include
libdir: /usr/lib/trafficserver
libexecdir: /usr/lib/trafficserver/modules
localstatedir: $d
runtimedir: $d/run
logdir: $d/log
cachedir: $d/cache
YAML
    echo traffic_server "--run-root=$d/runroot.yaml"
}

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046  # the *_cmd helpers print a word list without spaces inside words
scenario_nghttpx-h2c() { proxied nghttpx-h2c 19370 19371 py py-h2c 60 0 $(nghttpx_cmd nghttpx-clear.conf); }
scenario_nghttpx-h1()  { proxied nghttpx-h1 19370 19371 py py 60 0 $(nghttpx_cmd nghttpx-clear.conf); }
scenario_nghttpx-tls() { proxied nghttpx-tls 19372 19373 py py-h2 60 0 $(nghttpx_cmd nghttpx-tls.conf); }
scenario_h2o()         { proxied h2o 19374 19375 ts ts 60 40 $(h2o_cmd h2o.conf); }
scenario_h2o-h2c()     { proxied h2o-h2c 19374 19375 ts py-h2c 60 20 $(h2o_cmd h2o.conf); }
scenario_h2o-legacy()  { proxied h2o-legacy 19376 19377 py-sse py-sse 60 0 $(h2o_cmd h2o-legacy.conf); }
scenario_h2o-tls()     { proxied h2o-tls 19378 19379 ts py-h2 60 0 $(h2o_cmd h2o-tls.conf); }
scenario_ats()         { proxied ats 19380 19381 py ts 60 40 $(ats_cmd ats 19380); }
scenario_ats-legacy()  { proxied ats-legacy 19382 19383 py-sse py-sse 60 0 $(ats_cmd ats-legacy 19382); }

ALL=(nghttpx-h2c nghttpx-h1 nghttpx-tls h2o h2o-h2c h2o-legacy h2o-tls ats ats-legacy)

run_scenarios "tcpdump tshark openssl node npm nghttpx h2o traffic_server" -- "$@"

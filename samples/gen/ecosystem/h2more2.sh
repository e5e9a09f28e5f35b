#!/usr/bin/env bash
# mcptap ecosystem corpus, group "h2more2": MCP over HTTP/2 from HTTP/2 stacks and HTTP/2 features the corpus lacked:
# Node's built-in `node:http2` server (compat API) hosting the official TypeScript SDK server transport, nginx `gzip
# on` over its h2 front (gzip-coded DATA frames, SSE flushed per event), header blocks split into CONTINUATION frames
# (a 30 KB Cookie), HPACK dynamic-table churn (eight sessions one after the other on one h2 connection), response
# trailers, and the HTTP/1.1 `Upgrade: h2c` of a real client (curl --http2) through nghttpx. Every stack with its
# defaults; our code is only drivers (h2more2/*). Captured on loopback (127.0.0.1, ports 20510-20529 only):
#   nodeh2c-stall     port 20510: Python SDK client (mcp 2.3.0, mode legacy) over httpx2 h2c (prior knowledge) -> TS SDK
#                     1.32.2 StreamableHTTPServerTransport in node:http2 createServer, all defaults (Node's SETTINGS
#                     frame is empty); the client run is bounded to 8 s
#   nodeh2c-py        port 20511: the same, the Node server with settings { maxConcurrentStreams: 100 }
#   nodeh2-undici     port 20512: TS SDK client on undici 7.30.3 Agent({allowH2}) -> node:http2 createSecureServer (TLS,
#                     ALPN h2; key log beside the capture)
#   nginx-gzip-py     ports 20513 (nginx h2c front, gzip on) + 20514 (Python SDK server under uvicorn, HTTP/1.1): the
#                     Python client over httpx2 h2c
#   nginx-gzip-undici port 20515 (nginx h2 over TLS, gzip on; only the front is captured) -> 20514: the undici client
#   curl-upgrade      ports 20517 (nghttpx no-tls front: takes the h2c Upgrade) + 20518 (Python SDK server under uvicorn):
#                     curl --http2, one connection per message, each upgraded from HTTP/1.1 (h2more2/curl_client.sh)
#   nodeh2-trailers   port 20519: the Python client over h2c -> node:http2 (maxConcurrentStreams 100) whose responses
#                     end with a `server-timing` trailer (res.addTrailers)
#   continuation-py   port 20520: the Python client over h2c with a 30 KB Cookie header -> Python SDK server under
#                     hypercorn h2c (HEADERS + CONTINUATION on every request)
#   continuation-undici port 20521: the undici client with the 30 KB Cookie -> node:http2 createSecureServer (TLS, keys)
#   hpack-churn       port 20522: the Python client, 8 sessions one after the other (initialize, tools/list, add,
#                     DELETE) over ONE httpx2 client -> hypercorn h2c
# (ports 20516 and 20523-20529 are never listened on during a capture.)
#
#   sudo bash samples/gen/ecosystem/h2more2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/h2more2.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/h2more2-<scenario>.pcap (TLS ones with h2more2-<scenario>.keys beside them: `mcptap -r
# X.pcap --keylog X.keys`), listings samples/gen/wire/ecosystem/h2more2-<scenario>.pcap.txt made by the javah2 group's
# javah2/wire.py (h2c ports decoded with --prior; the curl-upgrade connections are followed through their 101) or, for
# TLS, the h2tls group's h2tls/describe_h2.py (decrypted with the key log). Each client run is bounded (timeout 60; the
# clients bound themselves); every server is stopped after its scenario; a guard capture on every interface (lib.sh
# guard_start/guard_stop) records whatever else left 127.0.0.1 meanwhile. Servers are awaited in the socket table
# (lib.sh listening), never by a probe connection.
#
# Needs root (tcpdump), tcpdump, tshark, ss, python3 (3.11) with venv, node 20 + npm, openssl (a self-signed
# certificate for 127.0.0.1 in h2more2/certs), nginx (Debian 1.22), nghttpx (Debian nghttp2-proxy 1.52), curl (7.88 with
# nghttp2). Python side: the h2situations group's venv and server app, used by path (h2situations/.venv from
# h2situations/requirements.txt: mcp 2.3.0, hypercorn 0.18.0, uvicorn 0.55.0, httpx2 2.17.0, h2 4.4.1;
# h2situations/h2situations_py.py:app); Node side: h2more2/node_modules (npm ci of h2more2/package-lock.json). All
# git-ignored. Results and labels: samples/ecosystem/h2more2.md, labels-h2more2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/h2more2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=h2more2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 OTEL_SDK_DISABLED=true NO_UPDATE_NOTIFIER=1

H2S="$ECO/h2situations"                                 # the h2situations group's venv and server app (read only)
VPY="$H2S/.venv/bin/python"
HYPERCORN="$H2S/.venv/bin/hypercorn"
UVICORN="$H2S/.venv/bin/uvicorn"
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"

setup() {
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    need_venv "$H2S/.venv" "$H2S/requirements.txt" hypercorn
    need_npm "$W"
}

hypercorn_cmd() { echo "$HYPERCORN" --bind "$HOST:$1" "$H2S/h2situations_py.py:app"; }
uvicorn_cmd() { echo "$UVICORN" --host "$HOST" --port "$1" --app-dir "$H2S" --no-access-log h2situations_py:app; }
node_server() { echo env -C "$W" node "$W/h2server.mjs" "$@"; }   # PORT h2c|tls [CERT KEY] [--trailers] [--max-streams N]
py_client() { echo "$VPY" "$W/h2more2_py.py" --url "http://$HOST:$1/mcp"; }   # + options
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
node_client() { echo env -C "$W" node "--tls-keylog=$(keys "$1")" "$W/client.mjs" "https://$HOST:$2/mcp" "$CERT" "${3:-0}"; }

# begin NAME PORTS LISTING -- SERVER-CMD...: guard on, the server up (seen listening on the first port), capture of
# PORTS (comma-separated) on. LISTING: "tls" (h2tls/describe_h2.py with the key log), "prior" (javah2/wire.py with the
# first port as --prior h2c) or "upgrade" (javah2/wire.py, h2c reached by Upgrade). A second server, if any, is
# started by the caller before begin.
begin() {
    local name=$1 ports=$2 listing=$3; shift 4
    local p1=${ports%%,*} spec="" p
    for p in $(echo "$ports" | tr , ' '); do spec="${spec:+$spec,}p$p=$p"; done
    case $listing in
        tls)     DESCRIBE=(python3 "$W/listing.py" python3 "$ECO/h2tls/describe_h2.py") ;;
        prior)   DESCRIBE=(python3 "$ECO/javah2/wire.py" "$spec" --prior "$p1") ;;
        upgrade) DESCRIBE=(python3 "$ECO/javah2/wire.py" "$spec") ;;
    esac
    guard_start "$name"
    bg "$name-server" "$@"
    listening "$p1"
    # shellcheck disable=SC2046
    capture_start "$name" $(echo "$ports" | tr , ' ')
}
end() {
    capture_stop "$1"
    cleanup
    sleep 1
    guard_stop "$1"
    [ ! -f "$CAP/$GROUP-$1.keys" ] || chmod 644 "$CAP/$GROUP-$1.keys"
}
# simple NAME PORTS LISTING SERVER-CMD -- CLIENT-CMD: one bounded client run against one server.
simple() {
    local name=$1 ports=$2 listing=$3; shift 3
    local srv=()
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    free "${ports%%,*}"   # the first port: a backend on the second is already up (backend)
    rm -f "$RUN/$name-server.log" "$RUN/$name-client.log"
    begin "$name" "$ports" "$listing" -- "${srv[@]}"
    run "$name-client" "$@"
    end "$name"
}
# backend NAME PORT: the Python SDK server under uvicorn (HTTP/1.1) behind a front, up before the front and capture.
# shellcheck disable=SC2046
backend() { free "$2"; rm -f "$RUN/$1-backend.log"; bg "$1-backend" $(uvicorn_cmd "$2"); listening "$2"; }

# --------------------------------------------------------------------------------------------- scenarios
# shellcheck disable=SC2046
scenario_nodeh2c-stall() { simple nodeh2c-stall 20510 prior $(node_server 20510 h2c) -- $(py_client 20510) --seconds 8; }
# shellcheck disable=SC2046
scenario_nodeh2c-py() { simple nodeh2c-py 20511 prior $(node_server 20511 h2c --max-streams 100) -- $(py_client 20511); }
# shellcheck disable=SC2046
scenario_nodeh2-undici() { simple nodeh2-undici 20512 tls $(node_server 20512 tls "$CERT" "$KEY") -- $(node_client nodeh2-undici 20512); }
nginx_front() { mkdir -p "$RUN/nginx/tmp"; echo nginx -p "$RUN/nginx/" -c "$W/nginx-gzip.conf" -e error.log; }
scenario_nginx-gzip-py() {
    backend nginx-gzip-py 20514
    # shellcheck disable=SC2046
    simple nginx-gzip-py 20513,20514 prior $(nginx_front) -- $(py_client 20513)
}
scenario_nginx-gzip-undici() {
    backend nginx-gzip-undici 20514
    # shellcheck disable=SC2046
    simple nginx-gzip-undici 20515 tls $(nginx_front) -- $(node_client nginx-gzip-undici 20515)
}
scenario_curl-upgrade() {
    backend curl-upgrade 20518
    # shellcheck disable=SC2046
    simple curl-upgrade 20517,20518 upgrade nghttpx "--frontend=$HOST,20517;no-tls" "--backend=$HOST,20518" --workers=1 \
        --conf=/dev/null -- bash "$W/curl_client.sh" "http://$HOST:20517/mcp" "$RUN/curl"
}
# shellcheck disable=SC2046
scenario_nodeh2-trailers() { simple nodeh2-trailers 20519 prior $(node_server 20519 h2c --trailers --max-streams 100) -- $(py_client 20519); }
# shellcheck disable=SC2046
scenario_continuation-py() { simple continuation-py 20520 prior $(hypercorn_cmd 20520) -- $(py_client 20520) --cookie-kb 30; }
# shellcheck disable=SC2046
scenario_continuation-undici() { simple continuation-undici 20521 tls $(node_server 20521 tls "$CERT" "$KEY") -- $(node_client continuation-undici 20521 30); }
# shellcheck disable=SC2046
scenario_hpack-churn() { simple hpack-churn 20522 prior $(hypercorn_cmd 20522) -- $(py_client 20522) --sessions 8; }

ALL=(nodeh2c-stall nodeh2c-py nodeh2-undici nginx-gzip-py nginx-gzip-undici curl-upgrade nodeh2-trailers continuation-py
     continuation-undici hpack-churn)

run_scenarios "tcpdump tshark ss openssl node npm nginx nghttpx curl" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "egress": MCP clients behind a FORWARD proxy (a corporate egress proxy: Debian's
# squid 5.7), as an SRE's sensor between agents and that proxy sees them: the client is pointed at squid by the
# environment variables every HTTP library reads (HTTP_PROXY / HTTPS_PROXY), squid forwards to the official Python
# SDK server (mcp 2.3.0). Fully offline, captured on loopback (127.0.0.1, ports 19090-19109 only) with both hops in
# every capture: client <-> squid (19090, the "front") and squid <-> server (the "backend" port).
#
#   sudo bash samples/gen/ecosystem/egress.sh             # every scenario
#   sudo bash samples/gen/ecosystem/egress.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/egress-<scenario>.pcap, key log samples/ecosystem/egress-<scenario>.keys
# beside it for the CONNECT ones, listing samples/gen/wire/ecosystem/egress-<scenario>.pcap.txt):
#   squid-http         19090 -> 19091: Python SDK 2.3.0 client, legacy mode (relays/py_client.py), with
#                      HTTP_PROXY=http://127.0.0.1:19090: absolute-form requests (`POST http://127.0.0.1:19091/mcp`)
#                      to squid, which forwards them in origin-form to the SDK's streamable_http_app, plain HTTP
#   squid-http-legacy  19090 -> 19093: the same proxy setting, the SDK client over the legacy HTTP+SSE transport
#                      (egress/py_sse_client.py) -> the SDK's sse_app (GET /sse, POST /messages/?session_id=)
#   squid-connect      19090 -> 19095: relays/py_client.py with HTTPS_PROXY=http://127.0.0.1:19090 to
#                      https://127.0.0.1:19095/mcp (uvicorn with a self-signed certificate for 127.0.0.1, trusted by
#                      the client through SSL_CERT_FILE; key log through SSLKEYLOGFILE): `CONNECT 127.0.0.1:19095`
#                      to squid, then TLS end to end through the tunnel
#   squid-ts-http      19090 -> 19097: TypeScript SDK 1.32.2 client (egress/ts_client.mjs: StreamableHTTPClientTransport
#                      over Node's global fetch, with undici 7's EnvHttpProxyAgent as global dispatcher, which reads
#                      HTTP_PROXY / HTTPS_PROXY / NO_PROXY) with HTTP_PROXY=http://127.0.0.1:19090 and
#                      `{ proxyTunnel: false }` (absolute-form requests) -> the SDK's streamable_http_app, plain HTTP
#   squid-ts-http-tunnel  19090 -> 19101: the same client with EnvHttpProxyAgent's defaults: undici 7.30.3 tunnels an
#                      http:// URL with CONNECT too (proxyTunnel defaults to true), and squid refuses CONNECT to a
#                      port outside SSL_ports (403): the session never starts; nothing reaches the server
#   squid-ts-connect   19090 -> 19099: the same client (defaults) with HTTPS_PROXY=http://127.0.0.1:19090 to
#                      https://127.0.0.1:19099/mcp (NODE_EXTRA_CA_CERTS trusts the certificate; key log by
#                      `node --tls-keylog`)
#   squid-two-origins  19090 -> 19103 and 19105: two origins of different SDK generations behind the same squid, one
#                      capture: relays/py_client.py (legacy mode, asks 2025-11-25) with HTTP_PROXY=http://127.0.0.1:19090
#                      to the mcp 2.3.0 server on 19103 (../py_server.py, answers 2025-11-25), then the same client
#                      to the oldsdks group's mcp 1.9.4 FastMCP server on 19105 (oldsdks/py18.py server in
#                      oldsdks/.venv-py19, made with need_venv from oldsdks/requirements-py19.txt if missing; answers
#                      2025-03-26), plain HTTP: on the front both sessions go to squid's 127.0.0.1:19090
#   squid-two-stateless  19090 -> 19107 and 19109: an agent with two MCP servers configured, neither minting a session
#                      id: two mcp 2.3.0 servers with stateless_http=True (../py_server.py PORT --stateless,
#                      `egress-py-server-19107` and `-19109`), both on /mcp, and ONE client process
#                      (egress/py_two_client.py, legacy mode) with HTTP_PROXY=http://127.0.0.1:19090 holding both
#                      sessions open at once, their calls interleaved (A then B: initialize, tools/list, add(1,2),
#                      echo, slow_count(3) with progress; then close B, A), plain HTTP: on the front both sessions
#                      share the client's address, squid's 127.0.0.1:19090 and the path /mcp; only the absolute-form
#                      target and Host tell them apart
#   squid-auth-then-legacy  19090 -> 19102 and 19104: an agent with two MCP servers configured behind the same squid,
#                      one capture: origin A (19102) is the mcp 2.3.0 server made an OAuth resource server by the SDK's
#                      own auth support (../py_server.py PORT --require-auth: a token verifier that accepts no
#                      token), origin B (19104) the SDK's legacy HTTP+SSE app (py_server.py PORT --sse);
#                      relays/py_client.py with no credentials to http://127.0.0.1:19102/mcp (its initialize is
#                      answered 401 by the SDK and the run ends), then, 0.5 s later, egress/py_sse_client.py to
#                      http://127.0.0.1:19104/sse (a normal HTTP+SSE session), both with HTTP_PROXY, plain HTTP: on
#                      the front both go to squid's 127.0.0.1:19090
#   squid-connect-h2   19090 -> 19106: squid-connect with HTTP/2 inside the tunnel: the Python SDK 2.3.0 client over
#                      httpx2.AsyncClient(http2=True) (egress/py_h2_client.py, legacy mode; h2more's timeouts) in the
#                      h2more group's venv (h2more/.venv, made by need_venv from h2more/requirements.txt if missing),
#                      HTTPS_PROXY, SSL_CERT_FILE, SSLKEYLOGFILE, to https://127.0.0.1:19106/mcp (19106 is in
#                      squid.conf.in's SSL_ports too): h2more's hypercorn --certfile/--keyfile (ALPN h2) serving
#                      h2more/h2more_py.py:app; listed by egress/wire_h2.py (h2tls/describe_h2.py's h2 frames, plus
#                      the CONNECT exchanges and the hop names), as wire.py reads HTTP/1.1 only
#
# Every other client run: initialize (legacy handshake), tools/list, add(1,2), echo("hello"), slow_count(3) with a
# progress callback (a progressToken: 3 notifications/progress 0.1 s apart), add(40,2), 0.1 s apart, close. Each
# request times out after 10 s (TS: 15 s), each client run after 30 s (60 here).
# The server is up before its capture starts (its port probed then, not during the capture); squid is started after
# the capture starts and its port is watched with `ss` (no probe packets), and stopped with SIGTERM before the capture
# ends (it exits after its shutdown_lifetime, 30 s by default), so what it does on both hops from its first to its
# last moment is in the capture.
#
# squid: Debian's package (`apt-get install -y squid`, 5.7-2+deb12u6), run as our own foreground process
# (`squid -N -f RUN/squid/squid.conf`, rendered from egress/squid.conf.in: Debian's default config on 127.0.0.1:19090
# with 19095 and 19099 added to the SSL_ports acl, its pid file, logs and netdb state in RUN/squid; see the template),
# not the system service. Nothing is cached on disk.
#
# Needs root (tcpdump; squid drops to its `proxy` user, which owns RUN/squid), squid, tcpdump, tshark (egress/wire.py,
# which imports agents/wire.py by path and decrypts the CONNECT captures with their key log), ss (iproute2), openssl
# (the self-signed certificate for 127.0.0.1 in egress/certs), python3 (3.11) with venv, node >= 20.18.1 and npm (the
# TS scenarios). First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 server and client) and
# egress/node_modules (npm ci, egress/package-lock.json); they, the certificate and RUN are git-ignored
# (egress/.gitignore). Results and labels: samples/ecosystem/egress.md, samples/ecosystem/labels-egress.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/egress"                                         # harness code, squid config template, pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, squid's own dir, the offline guard's captures
GROUP=egress
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the server and the MCP client; runs wire.py
PROXY_PORT=19090
PROXY="http://$HOST:$PROXY_PORT"
SQUID_DIR="$RUN/squid"                                  # squid's conf, pid file, logs, netdb state (owned by proxy)
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"
SERVER=("$SDKPY" "$ECO/py_server.py" --name "egress-py-server-{port}")                     # PORT [--sse | --stateless | --require-auth | --cert C --key K]
PY_CLIENT=("$SDKPY" "$ECO/relays/py_client.py")         # the relays group's client: URL [--mode legacy]
PY_SSE_CLIENT=("$SDKPY" "$W/py_sse_client.py")          # URL (.../sse)
PY_TWO_CLIENT=("$SDKPY" "$W/py_two_client.py")          # URL-A URL-B: two sessions at once, calls interleaved

setup() {
    setup_pysdk
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    need_npm "$W"
    mkdir -p "$SQUID_DIR"
    sed -e "s|@RUN@|$SQUID_DIR|g" -e "s|@PORT@|$PROXY_PORT|g" "$W/squid.conf.in" >"$SQUID_DIR/squid.conf"
    chown -R proxy:proxy "$SQUID_DIR"
    squid -k parse -f "$SQUID_DIR/squid.conf" >"$RUN/squid-parse.log" 2>&1 || { cat "$RUN/squid-parse.log" >&2; exit 1; }
}

# stop_squid PID: SIGTERM to squid itself (it stops its helpers, closes its connections and exits once none is
# active; shutdown_lifetime, 30 s by default, bounds that); SIGKILL to its process group if it is still there after
# 40 s.
stop_squid() {
    local i
    kill -TERM "$1" 2>/dev/null || true
    for i in $(seq 1 400); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# keys NAME: the key log of capture NAME (started afresh: it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
# proxied VAR: the client's environment: no proxy variable of the caller's, then VAR=http://127.0.0.1:19090 (VAR is
# HTTP_PROXY or HTTPS_PROXY) and nothing else of the kind (no NO_PROXY: nothing bypasses squid).
proxied() {
    echo env -u http_proxy -u https_proxy -u all_proxy -u no_proxy -u HTTP_PROXY -u HTTPS_PROXY -u ALL_PROXY \
        -u NO_PROXY "$1=$PROXY"
}

# egress NAME BACKEND SERVER-ARGS -- CLIENT-CMD...: the server (SERVER BACKEND SERVER-ARGS, "-" for none) up on
# BACKEND before the capture; a capture of 19090 and BACKEND; squid started inside it and waited for with
# `listening`; one bounded client run; squid stopped (SIGTERM); capture stop, listing by egress/wire.py (which
# decrypts with samples/ecosystem/egress-NAME.keys when there is one); everything down. A guard capture for the whole
# scenario keeps every packet that is not 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1): a DNS query of squid's would
# show there. Its packets are listed as a warning, not a failure: another program's traffic on this machine lands
# there too.
egress() {
    local name=$1 backend=$2 sargs=$3
    shift 3; [ "${1:-}" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$W/wire.py" "$PROXY_PORT" "$backend")
    guard_start "$name"
    free "$PROXY_PORT" "$backend"
    # shellcheck disable=SC2086
    if [ "$sargs" = "-" ]; then server "$name-server" "$backend" "${SERVER[@]}" "$backend"
    else server "$name-server" "$backend" "${SERVER[@]}" "$backend" $sargs; fi
    squid_up "$name" "$backend"
    run "$name-client" "$@"
    squid_down "$name"
}

# squid_up NAME PORT...: the capture of 19090 and the servers' PORTs starts, then squid inside it, waited for with
# `listening`; sets SQUID_PID.
squid_up() {
    local name=$1; shift
    capture_start "$name" "$PROXY_PORT" "$@"
    bg "$name-squid" squid -N -f "$SQUID_DIR/squid.conf"
    SQUID_PID=$LAST_PID
    listening "$PROXY_PORT"
}

# squid_down NAME: 0.5 s after the last client run, squid stopped (SIGTERM), the capture stopped and listed,
# everything down, the guard capture ended; the key log made readable; the tail of squid's access log shown, then
# emptied for the next scenario.
squid_down() {
    local name=$1
    sleep 0.5
    stop_squid "$SQUID_PID"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    [ ! -f "$CAP/$GROUP-$name.keys" ] || chmod 644 "$CAP/$GROUP-$name.keys"
    tail -n +1 "$SQUID_DIR/access.log" 2>/dev/null | sed "s/^/   access.log: /" | tail -24 || true
    : >"$SQUID_DIR/access.log" 2>/dev/null || true
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_squid-http() {
    # shellcheck disable=SC2046
    egress squid-http 19091 - -- $(proxied HTTP_PROXY) "${PY_CLIENT[@]}" "http://$HOST:19091/mcp"
}
scenario_squid-http-legacy() {
    # shellcheck disable=SC2046
    egress squid-http-legacy 19093 --sse -- $(proxied HTTP_PROXY) "${PY_SSE_CLIENT[@]}" "http://$HOST:19093/sse"
}
scenario_squid-connect() {
    local k; k="$(keys squid-connect)"
    # shellcheck disable=SC2046
    egress squid-connect 19095 "--cert $CERT --key $KEY" -- $(proxied HTTPS_PROXY) "SSL_CERT_FILE=$CERT" \
        "SSLKEYLOGFILE=$k" "${PY_CLIENT[@]}" "https://$HOST:19095/mcp"
}
scenario_squid-ts-http() {
    # shellcheck disable=SC2046
    egress squid-ts-http 19097 - -- $(proxied HTTP_PROXY) node "$W/ts_client.mjs" "http://$HOST:19097/mcp" --no-proxy-tunnel
}
scenario_squid-ts-http-tunnel() {
    # shellcheck disable=SC2046
    egress squid-ts-http-tunnel 19101 - -- $(proxied HTTP_PROXY) node "$W/ts_client.mjs" "http://$HOST:19101/mcp"
}
scenario_squid-ts-connect() {
    local k; k="$(keys squid-ts-connect)"
    # shellcheck disable=SC2046
    egress squid-ts-connect 19099 "--cert $CERT --key $KEY" -- $(proxied HTTPS_PROXY) "NODE_EXTRA_CA_CERTS=$CERT" \
        node "--tls-keylog=$k" "$W/ts_client.mjs" "https://$HOST:19099/mcp"
}

# squid-two-origins: egress() with two servers (A: mcp 2.3.0 on 19103; B: mcp 1.9.4 on 19105), both up before the
# capture, and two client runs in it, A first, 0.5 s apart; the listing names 19103 "backend" and 19105 "backend 2".
scenario_squid-two-origins() {
    local name=squid-two-origins a=19103 b=19105
    local old_py="$ECO/oldsdks/.venv-py19/bin/python"
    need_venv "$ECO/oldsdks/.venv-py19" "$ECO/oldsdks/requirements-py19.txt"   # before the guard: pip may go online
    DESCRIBE=("$SDKPY" "$W/wire.py" "$PROXY_PORT" "$a" "$b")
    guard_start "$name"
    free "$PROXY_PORT" "$a" "$b"
    server "$name-server-a" "$a" "${SERVER[@]}" "$a"
    server "$name-server-b" "$b" "$old_py" "$ECO/oldsdks/py18.py" server --port "$b"
    squid_up "$name" "$a" "$b"
    # shellcheck disable=SC2046
    run "$name-client-a" $(proxied HTTP_PROXY) "${PY_CLIENT[@]}" "http://$HOST:$a/mcp"
    sleep 0.5
    # shellcheck disable=SC2046
    run "$name-client-b" $(proxied HTTP_PROXY) "${PY_CLIENT[@]}" "http://$HOST:$b/mcp"
    squid_down "$name"
}

# squid-two-stateless: as squid-two-origins, with two stateless mcp 2.3.0 servers (A on 19107, B on 19109, both
# py_server.py --stateless) and ONE client run holding a session with each (py_two_client.py); the listing names 19107
# "backend" and 19109 "backend 2".
scenario_squid-two-stateless() {
    local name=squid-two-stateless a=19107 b=19109
    DESCRIBE=("$SDKPY" "$W/wire.py" "$PROXY_PORT" "$a" "$b")
    guard_start "$name"
    free "$PROXY_PORT" "$a" "$b"
    server "$name-server-a" "$a" "${SERVER[@]}" "$a" --stateless
    server "$name-server-b" "$b" "${SERVER[@]}" "$b" --stateless
    squid_up "$name" "$a" "$b"
    # shellcheck disable=SC2046
    run "$name-client" $(proxied HTTP_PROXY) "${PY_TWO_CLIENT[@]}" "http://$HOST:$a/mcp" "http://$HOST:$b/mcp"
    squid_down "$name"
}

# squid-auth-then-legacy: as squid-two-origins, with A the auth-requiring mcp 2.3.0 server on 19102 (py_server.py
# --require-auth) and B the legacy HTTP+SSE app on 19104 (py_server.py --sse), both up before the capture; two client
# runs in it, 0.5 s apart: the Streamable HTTP client (no credentials) to A, then the HTTP+SSE client to B. The listing
# names 19102 "backend" and 19104 "backend 2".
scenario_squid-auth-then-legacy() {
    local name=squid-auth-then-legacy a=19102 b=19104
    DESCRIBE=("$SDKPY" "$W/wire.py" "$PROXY_PORT" "$a" "$b")
    guard_start "$name"
    free "$PROXY_PORT" "$a" "$b"
    server "$name-server-a" "$a" "${SERVER[@]}" "$a" --require-auth
    server "$name-server-b" "$b" "${SERVER[@]}" "$b" --sse
    squid_up "$name" "$a" "$b"
    # shellcheck disable=SC2046
    run "$name-client-a" $(proxied HTTP_PROXY) "${PY_CLIENT[@]}" "http://$HOST:$a/mcp"
    sleep 0.5
    # shellcheck disable=SC2046
    run "$name-client-b" $(proxied HTTP_PROXY) "${PY_SSE_CLIENT[@]}" "http://$HOST:$b/sse"
    squid_down "$name"
}

# squid-connect-h2: squid-connect with HTTP/2 inside the tunnel: the h2more group's server (hypercorn --certfile
# --keyfile serving h2more/h2more_py.py:app, ALPN h2 and http/1.1; h2more/.venv, made with need_venv from
# h2more/requirements.txt if missing) with this group's certificate, and egress/py_h2_client.py (the SDK client over
# httpx2.AsyncClient(http2=True)) in h2more/.venv. Listed by egress/wire_h2.py (wire.py reads HTTP/1.1 only).
scenario_squid-connect-h2() {
    local name=squid-connect-h2 port=19106 k
    need_venv "$ECO/h2more/.venv" "$ECO/h2more/requirements.txt" hypercorn   # before the guard: pip may go online
    k="$(keys "$name")"
    DESCRIBE=("$SDKPY" "$W/wire_h2.py" "$PROXY_PORT" "$port")
    guard_start "$name"
    free "$PROXY_PORT" "$port"
    server "$name-server" "$port" "$ECO/h2more/.venv/bin/hypercorn" --certfile "$CERT" --keyfile "$KEY" \
        --bind "$HOST:$port" "$ECO/h2more/h2more_py.py:app"
    squid_up "$name" "$port"
    # shellcheck disable=SC2046
    run "$name-client" $(proxied HTTPS_PROXY) "SSL_CERT_FILE=$CERT" "SSLKEYLOGFILE=$k" "$ECO/h2more/.venv/bin/python" \
        "$W/py_h2_client.py" "https://$HOST:$port/mcp"
    squid_down "$name"
}

ALL=(squid-http squid-http-legacy squid-connect squid-ts-http squid-ts-http-tunnel squid-ts-connect squid-two-origins
     squid-two-stateless squid-auth-then-legacy squid-connect-h2)

run_scenarios "tcpdump tshark ss openssl squid node npm" -- "$@"

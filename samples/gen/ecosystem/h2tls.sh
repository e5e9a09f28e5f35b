#!/usr/bin/env bash
# mcptap ecosystem corpus, group "h2tls": real MCP traffic carried over HTTP/2 over TLS (ALPN h2) by real
# implementations with their own defaults, plus only what a user does to turn TLS and h2 on; captured on loopback
# (127.0.0.1, ports 18863-18874 only) together with the client's TLS key log.
#
#   sudo bash samples/gen/ecosystem/h2tls.sh             # every scenario
#   sudo bash samples/gen/ecosystem/h2tls.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/h2tls-<scenario>.pcap, key log samples/ecosystem/h2tls-<scenario>.keys beside
# it, listing samples/gen/wire/ecosystem/h2tls-<scenario>.pcap.txt):
#   go-sdk-h2          Go SDK v1.7.0 client (StreamableClientTransport; http.Client whose Transport has
#                      TLSClientConfig{RootCAs, KeyLogWriter} and ForceAttemptHTTP2) -> Go SDK server
#                      (StreamableHTTPHandler defaults: stateful, SSE replies) served by net/http ServeTLS, port 18863
#   go-sdk-h2-json     the same, server with StreamableHTTPOptions{JSONResponse: true}, port 18864
#   pysdk-hypercorn-h2 Python SDK (mcp 2.3.0) client, Client(...) default mode "auto", over
#                      httpx2.AsyncClient(http2=True, verify=ssl.create_default_context(cafile=cert)), key log through
#                      SSLKEYLOGFILE -> Python SDK server (MCPServer.streamable_http_app defaults) under
#                      hypercorn --certfile/--keyfile, port 18865
#   pysdk-hypercorn-h2-legacy  the same with the client in mode="legacy" (initialize handshake), port 18868
#   nginx-h2           the pysdk-hypercorn-h2 client -> nginx 1.22 (Debian's; TLS, `listen ... ssl http2`,
#                      h2tls/nginx-h2.conf) on 18866 -> the same Python server, hypercorn cleartext HTTP/1.1 on 18867
#                      (only the client <-> nginx port 18866 is captured)
#   nginx-h2-legacy    as nginx-h2 with the client in mode="legacy"; nginx on 18869, same backend port 18867
#
# Each client: its SDK's own handshake, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken
# (3 notifications/progress 0.1 s apart), add(40,2), close.
#
# Needs root (tcpdump), python3 >= 3.11, ss, tcpdump, tshark (the listings: h2tls/describe_h2.py decrypts with the
# key log), openssl (a self-signed certificate for 127.0.0.1 in h2tls/certs), nginx (nginx scenarios; run as our own
# non-daemon process, prefix h2tls/run/nginx-h2), and the go-sdk group's module sources under go-sdk/src and its Go
# toolchain go-sdk/.venv-go (see samples/ecosystem/go-sdk.md; built here with GOPROXY=off and the `replace`
# directives of h2tls/go.mod into h2tls/build). First use creates h2tls/.venv (h2tls/requirements.txt). All of these
# are git-ignored (h2tls/.gitignore). Results and labels: samples/ecosystem/h2tls.md, labels-h2tls.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/h2tls"                                          # harness code and pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
GOSDK_W="$ECO/go-sdk"                                   # the go-sdk group: sources and Go toolchain
HARNESS="$W/build/h2tls-harness"
VPY="$W/.venv/bin/python"
HYPERCORN="$W/.venv/bin/hypercorn"
APP="$W/h2tls_py.py:app"
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"
RUN="$W/run"                                            # scratch: logs, nginx prefix
GROUP=h2tls
DESCRIBE=(python3 "$W/describe_h2.py")                  # tshark listing, decrypted with CAPTURE.keys
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    need_venv "$W/.venv" "$W/requirements.txt" hypercorn
    [ -x "$HARNESS" ] && return 0
    [ -d "$GOSDK_W/src/modelcontextprotocol/go-sdk" ] || {
        echo "no sources in go-sdk/src (lay out the repositories of go-sdk/SOURCES there, see samples/ecosystem/go-sdk.md)" >&2
        exit 1
    }
    need_venv "$GOSDK_W/.venv-go" "$GOSDK_W/requirements-go.txt" go
    (cd "$W" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOPATH="$W/gopath" GOCACHE="$W/gopath/cache" \
        "$GOSDK_W/.venv-go/bin/go" build -p 1 -o "$HARNESS" .)
}

# keys NAME: the key log of capture NAME (started afresh: it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
# keys_done NAME: make the key log readable like the capture.
keys_done() { chmod 644 "$CAP/$GROUP-$1.keys"; }

# go_run NAME PORT [--json]: the Go SDK server over TLS on PORT, the Go SDK client with its key log.
go_run() {
    local name=$1 port=$2; shift 2
    local k; k="$(keys "$name")"
    capture_run "$name" "$port" "$HARNESS" server --port "$port" --cert "$CERT" --key "$KEY" "$@" \
        -- "$HARNESS" client --url "https://$HOST:$port/mcp" --ca "$CERT" --keylog "$k"
    keys_done "$name"
}

# py_client NAME PORT MODE: the Python SDK client command (key log through SSLKEYLOGFILE).
py_client() { echo env "SSLKEYLOGFILE=$(keys "$1")" "$VPY" "$W/h2tls_py.py" client --url "https://$HOST:$2/mcp" --ca "$CERT" --mode "$3"; }

# hyper_run NAME PORT MODE: the Python SDK server under hypercorn with TLS on PORT, the Python SDK client.
hyper_run() {
    local name=$1 port=$2 mode=$3
    # shellcheck disable=SC2046
    capture_run "$name" "$port" "$HYPERCORN" --certfile "$CERT" --keyfile "$KEY" --bind "$HOST:$port" "$APP" \
        -- $(py_client "$name" "$port" "$mode")
    keys_done "$name"
}

# nginx_run NAME PORT MODE: hypercorn cleartext on 18867, nginx (h2tls/nginx-h2.conf: TLS + h2 on 18866 and 18869)
# in front; capture only the client-facing PORT.
nginx_run() {
    local name=$1 port=$2 mode=$3
    mkdir -p "$RUN/nginx-h2/tmp"
    server "$name-backend" 18867 "$HYPERCORN" --bind "$HOST:18867" "$APP"
    server "$name-nginx" "$port" nginx -p "$RUN/nginx-h2/" -c "$W/nginx-h2.conf" -e error.log
    capture_start "$name" "$port"
    # shellcheck disable=SC2046
    run "$name-client" $(py_client "$name" "$port" "$mode")
    capture_stop "$name"
    cleanup
    keys_done "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_go-sdk-h2() { go_run go-sdk-h2 18863; }

scenario_go-sdk-h2-json() { go_run go-sdk-h2-json 18864 --json; }

scenario_pysdk-hypercorn-h2() { hyper_run pysdk-hypercorn-h2 18865 auto; }

scenario_pysdk-hypercorn-h2-legacy() { hyper_run pysdk-hypercorn-h2-legacy 18868 legacy; }

scenario_nginx-h2() { nginx_run nginx-h2 18866 auto; }

scenario_nginx-h2-legacy() { nginx_run nginx-h2-legacy 18869 legacy; }

ALL=(go-sdk-h2 go-sdk-h2-json pysdk-hypercorn-h2 pysdk-hypercorn-h2-legacy nginx-h2 nginx-h2-legacy)

run_scenarios "tcpdump tshark ss openssl nginx" -- "$@"

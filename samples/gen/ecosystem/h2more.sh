#!/usr/bin/env bash
# mcptap ecosystem corpus, group "h2more": real MCP traffic over HTTP/2 from HTTP/2 implementations the h2tls group
# does not have (undici's h2 client in Node, granian's hyper-based h2 server, cleartext h2c with prior knowledge), each
# with its own defaults plus only what a user does to turn TLS and h2 on; captured on loopback (127.0.0.1, ports
# 18825-18844 only) together with the client's TLS key log.
#
#   sudo bash samples/gen/ecosystem/h2more.sh             # every scenario
#   sudo bash samples/gen/ecosystem/h2more.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/h2more-<scenario>.pcap, key log samples/ecosystem/h2more-<scenario>.keys beside
# it for the TLS ones, listing samples/gen/wire/ecosystem/h2more-<scenario>.pcap.txt):
#   undici-h2-go         TypeScript SDK 1.32.2 client (StreamableHTTPClientTransport with `fetch` = undici 7 fetch over
#                        an undici Agent({allowH2: true, connect: {ca}}); key log by `node --tls-keylog`) -> the Go SDK
#                        v1.7.0 server of the h2tls group (h2tls-harness server: StreamableHTTPHandler defaults, net/http
#                        ServeTLS), port 18825
#   undici-h2-hypercorn  the same client -> Python SDK (mcp 2.3.0) server (MCPServer.streamable_http_app defaults) under
#                        hypercorn --certfile/--keyfile, port 18826
#   granian-h2           Python SDK client, Client(...) default mode "auto", over httpx2.AsyncClient(http2=True,
#                        verify=ssl.create_default_context(cafile=cert)), key log through SSLKEYLOGFILE -> the Python
#                        SDK server under granian (--interface asgi, --http auto, --ssl-certificate/--ssl-keyfile),
#                        port 18827
#   granian-h2-legacy    the same with the client in mode="legacy" (initialize handshake), port 18828
#   h2c-granian          Python SDK client (mode "auto") over httpx2.AsyncClient(http1=False, http2=True) to http://
#                        (cleartext h2c with prior knowledge, no key log) -> the Python SDK server under granian
#                        --http 2 without TLS, port 18829
#   h2c-hypercorn-legacy Python SDK client (mode="legacy") over the same h2c client -> the Python SDK server under
#                        hypercorn without TLS (it accepts the h2 preface on a cleartext port), port 18830
#
# Each client: its SDK's own handshake, tools/list, add(1,2), echo("hello"), slow_count(3) with a progressToken
# (3 notifications/progress 0.1 s apart), add(40,2), close (the TypeScript client sends DELETE first).
#
# Needs root (tcpdump), python3 >= 3.11, node >= 20.18.1 and npm, ss, tcpdump, tshark (the listings:
# h2tls/describe_h2.py decrypts with the key log), openssl (a self-signed certificate for 127.0.0.1 in h2more/certs),
# and for undici-h2-go the h2tls group's Go harness (h2tls/build/h2tls-harness; if it is missing it is built from the
# h2tls sources with the go-sdk group's toolchain and sources into h2more/build, as h2tls.sh does, see
# samples/ecosystem/go-sdk.md). First use creates h2more/.venv (h2more/requirements.txt) and h2more/node_modules
# (npm ci, h2more/package-lock.json). All of these are git-ignored (h2more/.gitignore). Results and labels:
# samples/ecosystem/h2more.md, labels-h2more.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/h2more"                                         # harness code and pins
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
H2TLS_W="$ECO/h2tls"                                    # the h2tls group: its Go harness (read only)
GOSDK_W="$ECO/go-sdk"                                   # the go-sdk group: sources and Go toolchain
HARNESS="$H2TLS_W/build/h2tls-harness"
VPY="$W/.venv/bin/python"
HYPERCORN="$W/.venv/bin/hypercorn"
GRANIAN="$W/.venv/bin/granian"
APP="h2more_py:app"                                     # module in $W (granian --working-dir, hypercorn a path)
CERT="$W/certs/cert.pem"
KEY="$W/certs/key.pem"
RUN="$W/run"                                            # scratch: logs
GROUP=h2more
DESCRIBE=(python3 "$ECO/h2tls/describe_h2.py")          # tshark listing, decrypted with CAPTURE.keys (h2c: none)
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    [ -s "$CERT" ] || { mkdir -p "$W/certs" && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -addext "subjectAltName=IP:127.0.0.1" -keyout "$KEY" -out "$CERT" 2>/dev/null; }
    need_venv "$W/.venv" "$W/requirements.txt" granian
    [ -d "$W/node_modules/undici" ] || (cd "$W" && npm ci --no-audit --no-fund)
    [ -x "$HARNESS" ] && return 0
    HARNESS="$W/build/h2tls-harness"
    [ -x "$HARNESS" ] && return 0
    [ -d "$GOSDK_W/src/modelcontextprotocol/go-sdk" ] || {
        echo "no sources in go-sdk/src (lay out the repositories of go-sdk/SOURCES there, see samples/ecosystem/go-sdk.md)" >&2
        exit 1
    }
    need_venv "$GOSDK_W/.venv-go" "$GOSDK_W/requirements-go.txt" go
    (cd "$H2TLS_W" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOPATH="$W/gopath" GOCACHE="$W/gopath/cache" \
        "$GOSDK_W/.venv-go/bin/go" build -p 1 -o "$HARNESS" .)
}

# keys NAME: the key log of capture NAME (started afresh: it must hold only that capture's TLS sessions).
keys() { local k="$CAP/$GROUP-$1.keys"; rm -f "$k"; echo "$k"; }
# keys_done NAME: make the key log readable like the capture.
keys_done() { chmod 644 "$CAP/$GROUP-$1.keys"; }

# node_client NAME PORT: the TypeScript SDK client over undici h2, key log by node itself.
node_client() { echo node "--tls-keylog=$(keys "$1")" "$W/client.mjs" "https://$HOST:$2/mcp" "$CERT"; }

# py_client NAME PORT MODE: the Python SDK client command over h2 + TLS (key log through SSLKEYLOGFILE).
py_client() { echo env "SSLKEYLOGFILE=$(keys "$1")" "$VPY" "$W/h2more_py.py" client --url "https://$HOST:$2/mcp" --ca "$CERT" --mode "$3"; }
# py_h2c_client PORT MODE: the Python SDK client command over cleartext h2c with prior knowledge (no key log).
py_h2c_client() { echo "$VPY" "$W/h2more_py.py" client --url "http://$HOST:$1/mcp" --h2c --mode "$2"; }

# hypercorn_cmd PORT [TLS]: the Python SDK server under hypercorn on PORT (with TLS when TLS is "tls").
hypercorn_cmd() {
    local tls=()
    [ "${2:-}" = tls ] && tls=(--certfile "$CERT" --keyfile "$KEY")
    echo "$HYPERCORN" "${tls[@]}" --bind "$HOST:$1" "$W/h2more_py.py:app"
}
# granian_cmd PORT [TLS]: the Python SDK server under granian on PORT: with TLS (`--http auto`, its default, ALPN
# h2 and http/1.1) when TLS is "tls", else cleartext `--http 2` (h2c with prior knowledge only).
granian_cmd() {
    local extra=(--http 2)
    [ "${2:-}" = tls ] && extra=(--ssl-certificate "$CERT" --ssl-keyfile "$KEY")
    echo "$GRANIAN" --interface asgi "${extra[@]}" --host "$HOST" --port "$1" --working-dir "$W" "$APP"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_undici-h2-go() {
    # shellcheck disable=SC2046
    capture_run undici-h2-go 18825 "$HARNESS" server --port 18825 --cert "$CERT" --key "$KEY" \
        -- $(node_client undici-h2-go 18825)
    keys_done undici-h2-go
}

scenario_undici-h2-hypercorn() {
    # shellcheck disable=SC2046
    capture_run undici-h2-hypercorn 18826 $(hypercorn_cmd 18826 tls) -- $(node_client undici-h2-hypercorn 18826)
    keys_done undici-h2-hypercorn
}

scenario_granian-h2() {
    # shellcheck disable=SC2046
    capture_run granian-h2 18827 $(granian_cmd 18827 tls) -- $(py_client granian-h2 18827 auto)
    keys_done granian-h2
}

scenario_granian-h2-legacy() {
    # shellcheck disable=SC2046
    capture_run granian-h2-legacy 18828 $(granian_cmd 18828 tls) -- $(py_client granian-h2-legacy 18828 legacy)
    keys_done granian-h2-legacy
}

scenario_h2c-granian() {
    rm -f "$CAP/$GROUP-h2c-granian.keys"
    # shellcheck disable=SC2046
    capture_run h2c-granian 18829 $(granian_cmd 18829) -- $(py_h2c_client 18829 auto)
}

scenario_h2c-hypercorn-legacy() {
    rm -f "$CAP/$GROUP-h2c-hypercorn-legacy.keys"
    # shellcheck disable=SC2046
    capture_run h2c-hypercorn-legacy 18830 $(hypercorn_cmd 18830) -- $(py_h2c_client 18830 legacy)
}

ALL=(undici-h2-go undici-h2-hypercorn granian-h2 granian-h2-legacy h2c-granian h2c-hypercorn-legacy)

run_scenarios "tcpdump tshark ss openssl node npm" -- "$@"

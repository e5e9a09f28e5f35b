#!/usr/bin/env bash
# mcptap ecosystem corpus, group "compress2": compressed MCP bodies from compression layers the corpus had not met
# (compress.md and buffering.md cover npm compression, Hono compress(), Starlette GZipMiddleware, brotli-asgi,
# starlette-compress, nginx, Caddy, Apache, lighttpd, HAProxy, Varnish). Each layer with its defaults, plus the one
# setting users add to force an encoding (named per scenario). Servers and clients (pins: compress2/rmcp-tower/
# Cargo.toml + Cargo.lock, compress2/package.json + package-lock.json, compress2/requirements.txt):
#   Rust: rmcp 3.11.0 Streamable HTTP server (stateful, default config) on axum 0.8.9 in tower-http 0.6.8
#         CompressionLayer::new() (gzip, br, zstd, deflate features): compress2/rmcp-tower
#   Node: the TS SDK 1.32.2 Web-standard Streamable HTTP transport (stateful) in Fastify 5.12.8 + @fastify/compress
#         9.2.0 or Koa 3.3.0 + koa-compress 5.2.2: compress2/server.mjs
#   Python: aiohttp-mcp 0.7.0 (Streamable HTTP, stateful; mcp 1.30.0) on aiohttp 3.14.5 with
#         response.enable_compression() from a middleware (or, `naive`, an on_response_prepare signal handler):
#         compress2/aiohttp_server.py
# Clients: the official Python SDK client (mcp 2.3.0, httpx2 with brotli + backports.zstd: gzip, deflate, br, zstd;
# compress2/client.py) and the TS SDK 1.32.2 client (Node 20 fetch: gzip, deflate, br; compress2/client.mjs).
# Each run: initialize (+ standalone GET), tools/list (30 tools), echo, slow (5 progress notifications 1 s apart on
# its SSE reply), catalog_tool_07, DELETE. Loopback 127.0.0.1, ports 20710-20729:
#   rmcp-tower-py        Python client -> rmcp + CompressionLayer :20710
#   rmcp-tower-ts        TS client -> rmcp + CompressionLayer :20711
#   rmcp-json-py         Python client -> rmcp + CompressionLayer :20717, rmcp's stateless JSON mode
#                        (legacy_session_mode: false, json_response: true)
#   rmcp-json-ts         TS client -> the same :20720
#   fastify-sse-ts       TS client -> Fastify + @fastify/compress (defaults) :20712, SSE replies
#   fastify-json-deflate-py  Python client -> Fastify + @fastify/compress {encodings: ['deflate']} :20713,
#                        enableJsonResponse: true
#   koa-sse-deflate-ts   TS client -> Koa + koa-compress {br: false, gzip: false} :20714, SSE replies
#   koa-json-py          Python client -> Koa + koa-compress (defaults) :20715, enableJsonResponse: true
#   koa-json-deflate-ts  TS client -> Koa + koa-compress {br: false, gzip: false} :20718, enableJsonResponse: true
#   fastify-json-ts      TS client -> Fastify + @fastify/compress (defaults) :20719, enableJsonResponse: true
#   aiohttp-naive-py     Python client -> aiohttp-mcp (SSE replies) :20721, enable_compression() from an
#                        on_response_prepare handler (aiohttp-sse's EventSourceResponse refuses it: a 500)
#   aiohttp-all-py       Python client -> aiohttp-mcp (json_response=True) :20726, enable_compression() from a
#                        middleware on every response returned unprepared (body-less 202: aiohttp drops the connection)
#   aiohttp-json-py      Python client -> aiohttp-mcp (json_response=True) :20724, enable_compression() from a
#                        middleware on every response returned unprepared and with a body
#   aiohttp-json-deflate-ts  TS client -> the same with enable_compression(ContentCoding.deflate) :20725
#   fastify-raw-py       Python client -> Fastify + @fastify/compress (defaults) :20716 with the Node transport
#                        (StreamableHTTPServerTransport on reply.raw, the usual Fastify wiring), SSE replies
#
# (ports 20722, 20723 and 20729 were used for trial runs outside any committed capture.)
#
#   sudo bash samples/gen/ecosystem/compress2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/compress2.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/compress2-<scenario>.pcap, listings samples/gen/wire/ecosystem/compress2-<scenario>
# .pcap.txt (../compress/wire.py: tshark's HTTP view, then frame by frame with Content-Encoding undone as the bytes
# arrive). Every run is bounded (timeout); a guard capture (lib.sh guard_start/guard_stop) records anything that
# left 127.0.0.1.
# Needs root (tcpdump), tcpdump, tshark, ss, node 20 + npm, python3, cargo (crates.io). First use makes
# compress2/.venv (requirements.txt), compress2/.venv-aiohttp (requirements-aiohttp.txt), compress2/node_modules (`npm ci`) and builds compress2/rmcp-tower/target.
# Results and labels: samples/ecosystem/compress2.md, samples/ecosystem/labels-compress2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/compress2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=compress2
PY="$W/.venv/bin/python"
DESCRIBE=("$PY" "$ECO/compress/wire.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

RMCP="$W/rmcp-tower/target/debug/compress2-rmcp-tower"
setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_venv "$W/.venv-aiohttp" "$W/requirements-aiohttp.txt"
    need_npm "$W"
    [ -x "$RMCP" ] || (cd "$W/rmcp-tower" && cargo build --locked)
}
U() { echo "http://$HOST:$1/mcp"; }

# one NAME PORT CLIENT(py|ts) SERVER-CMD...: server up, capture, one client run, everything down.
one() {
    local name=$1 port=$2 cl=$3; shift 3
    guard_start "$name"
    free "$port"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "$@"
    listening "$port"
    capture_start "$name" "$port"
    if [ "$cl" = py ]; then run "$name-client" "$PY" "$W/client.py" "$(U "$port")"
    else run "$name-client" node "$W/client.mjs" "$(U "$port")"; fi
    sleep 1
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
NODE_SERVER=(node "$W/server.mjs")
scenario_rmcp-tower-py() { one rmcp-tower-py 20710 py "$RMCP" 20710; }
scenario_rmcp-tower-ts() { one rmcp-tower-ts 20711 ts "$RMCP" 20711; }
scenario_fastify-sse-ts() { one fastify-sse-ts 20712 ts "${NODE_SERVER[@]}" 20712 fastify sse; }
scenario_fastify-json-deflate-py() { one fastify-json-deflate-py 20713 py "${NODE_SERVER[@]}" 20713 fastify json deflate; }
scenario_koa-sse-deflate-ts() { one koa-sse-deflate-ts 20714 ts "${NODE_SERVER[@]}" 20714 koa sse deflate; }
scenario_koa-json-py() { one koa-json-py 20715 py "${NODE_SERVER[@]}" 20715 koa json; }
scenario_rmcp-json-py() { one rmcp-json-py 20717 py "$RMCP" 20717 json; }
scenario_rmcp-json-ts() { one rmcp-json-ts 20720 ts "$RMCP" 20720 json; }
scenario_koa-json-deflate-ts() { one koa-json-deflate-ts 20718 ts "${NODE_SERVER[@]}" 20718 koa json deflate; }
scenario_fastify-json-ts() { one fastify-json-ts 20719 ts "${NODE_SERVER[@]}" 20719 fastify json; }
AIO_SERVER=("$W/.venv-aiohttp/bin/python" "$W/aiohttp_server.py")
scenario_aiohttp-naive-py() { one aiohttp-naive-py 20721 py "${AIO_SERVER[@]}" 20721 sse naive; }
scenario_aiohttp-all-py() { one aiohttp-all-py 20726 py "${AIO_SERVER[@]}" 20726 json all; }
scenario_aiohttp-json-py() { one aiohttp-json-py 20724 py "${AIO_SERVER[@]}" 20724 json; }
scenario_aiohttp-json-deflate-ts() { one aiohttp-json-deflate-ts 20725 ts "${AIO_SERVER[@]}" 20725 json deflate; }
scenario_fastify-raw-py() { one fastify-raw-py 20716 py "${NODE_SERVER[@]}" 20716 fastify sse raw; }

ALL=(rmcp-tower-py rmcp-tower-ts rmcp-json-py rmcp-json-ts fastify-sse-ts fastify-json-deflate-py fastify-json-ts koa-sse-deflate-ts
     koa-json-py koa-json-deflate-ts aiohttp-naive-py aiohttp-all-py aiohttp-json-py aiohttp-json-deflate-ts fastify-raw-py)

run_scenarios "tcpdump tshark ss node python3" -- "$@"

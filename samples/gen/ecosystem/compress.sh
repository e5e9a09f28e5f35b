#!/usr/bin/env bash
# mcptap ecosystem corpus, group "compress": real MCP traffic behind the compression middleware that deployments put
# in front of MCP servers, each with its own defaults (nothing here shapes the traffic), captured on loopback
# (127.0.0.1, ports 18875-18886 only).
#
#   sudo bash samples/gen/ecosystem/compress.sh             # every scenario
#   sudo bash samples/gen/ecosystem/compress.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/compress-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   ts-express-compression-sse   official TS SDK 1.x server (StreamableHTTPServerTransport per session, stateful, SSE
#                                replies by default) on express 5 behind npm `compression` (app.use(compression())
#                                before the MCP route, defaults) <- TS SDK client (Node's fetch, its Accept-Encoding)
#   ts-express-compression-json  the same with enableJsonResponse: true
#   pysdk-gzip-json              Python SDK server (mcp, MCPServer.streamable_http_app, json_response=True, stateful)
#                                wrapped in Starlette's GZipMiddleware(minimum_size=100) <- Python SDK client
#                                (mode="legacy": initialize; httpx2 sends its Accept-Encoding)
#   pysdk-gzip-sse               the same with SSE replies (json_response=False)
#   pysdk-brotli-sse             the Python SDK server (SSE replies) wrapped in brotli-asgi's BrotliMiddleware with its
#                                defaults (quality 4, minimum_size 400, gzip fallback) <- Python SDK client (accepts br
#                                because the brotli package is installed beside it)
#   pysdk-brotli-json            the same with json_response=True
#   pysdk-compress-sse           the Python SDK server (SSE replies) wrapped in starlette-compress's CompressMiddleware
#                                with its defaults (zstd > br > gzip, minimum_size 500) <- Python SDK client (accepts br)
#   pysdk-zstd-sse               the same server <- the Python SDK client from compress/.venv-zstd (httpx2 with
#                                backports-zstd, so it also accepts zstd)
#   pysdk-zstd-json              the same with json_response=True
#   pysdk-compress-ts-client     the pysdk-compress-sse server <- the TS SDK client (Node's fetch offers gzip, deflate:
#                                gzip-encoded SSE)
#   hono-compress-sse            @hono/mcp StreamableHTTPTransport (a transport per session, SSE replies by default) +
#                                the SDK's McpServer on Hono behind hono's compress() (defaults) <- TS SDK client
#   hono-compress-json           the same with enableJsonResponse: true
#
# Every client run: initialize (+ the standalone GET the TS client opens), tools/list, add(1,2), echo("hello"),
# report(40) (a result of about 2 KB), slow_count(3) with a progressToken (3 notifications/progress 0.1 s apart),
# DELETE (terminateSession / the Python client's close), close. Each client run is bounded (timeout 60 here; 30 s
# guards and 15 s request timeouts inside the clients).
#
# Needs root (tcpdump), node 20 + npm, tcpdump, tshark (the listing, compress/wire.py), python3 with venv. First use
# runs `npm ci` in compress/ (node_modules) and makes compress/.venv from compress/requirements.txt and
# compress/.venv-zstd from requirements-zstd.txt (all git-ignored). Results and labels: samples/ecosystem/compress.md, samples/ecosystem/labels-compress.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples, PY)
W="$ECO/compress"                                       # harness code, pins, node_modules, .venv
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs
GROUP=compress
WPY="$W/.venv/bin/python"
DESCRIBE=("$WPY" "$W/wire.py")                          # describe.py does not undo Content-Encoding; wire.py does
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_venv "$W/.venv-zstd" "$W/requirements-zstd.txt"
    # Installed again whenever the lock file is newer than the install (a pin added since).
    need_npm "$W"
}

# ts NAME PORT [--json]: the express + compression server, the TS SDK client.
ts() {
    local name=$1 port=$2; shift 2
    capture_run "$name" "$port" node "$W/ts-server.mjs" "$port" "$@" -- node "$W/client.mjs" "http://$HOST:$port/mcp"
}
# hono NAME PORT [--json]: the @hono/mcp server behind hono's compress(), the TS SDK client.
hono() {
    local name=$1 port=$2; shift 2
    capture_run "$name" "$port" node "$W/hono-server.mjs" "$port" "$@" -- node "$W/client.mjs" "http://$HOST:$port/mcp"
}
# py NAME PORT MIDDLEWARE [--json]: the Python SDK server in MIDDLEWARE (gzip|brotli|compress), the Python SDK client
# (from the venv CLIENT_PY, default compress/.venv).
py() {
    local name=$1 port=$2 mw=$3; shift 3
    capture_run "$name" "$port" "$WPY" "$W/compress_py.py" server --port "$port" --mw "$mw" "$@" \
        -- "${CLIENT_PY:-$WPY}" "$W/compress_py.py" client --url "http://$HOST:$port/mcp"
}

scenario_ts-express-compression-sse()  { ts ts-express-compression-sse 18875; }
scenario_ts-express-compression-json() { ts ts-express-compression-json 18876 --json; }
scenario_pysdk-gzip-json()             { py pysdk-gzip-json 18877 gzip --json; }
scenario_pysdk-gzip-sse()              { py pysdk-gzip-sse 18878 gzip; }
scenario_pysdk-brotli-sse()            { py pysdk-brotli-sse 18879 brotli; }
scenario_pysdk-brotli-json()           { py pysdk-brotli-json 18880 brotli --json; }
scenario_pysdk-compress-sse()          { py pysdk-compress-sse 18883 compress; }
scenario_pysdk-zstd-sse()              { CLIENT_PY="$W/.venv-zstd/bin/python" py pysdk-zstd-sse 18884 compress; }
scenario_pysdk-zstd-json()             { CLIENT_PY="$W/.venv-zstd/bin/python" py pysdk-zstd-json 18885 compress --json; }
scenario_pysdk-compress-ts-client()    {
    capture_run pysdk-compress-ts-client 18886 "$WPY" "$W/compress_py.py" server --port 18886 --mw compress \
        -- node "$W/client.mjs" "http://$HOST:18886/mcp"
}
scenario_hono-compress-sse()           { hono hono-compress-sse 18881; }
scenario_hono-compress-json()          { hono hono-compress-json 18882 --json; }

ALL=(ts-express-compression-sse ts-express-compression-json pysdk-gzip-json pysdk-gzip-sse pysdk-brotli-sse
     pysdk-brotli-json pysdk-compress-sse pysdk-zstd-sse pysdk-zstd-json
     pysdk-compress-ts-client hono-compress-sse hono-compress-json)

run_scenarios "tcpdump tshark node npm" -- "$@"

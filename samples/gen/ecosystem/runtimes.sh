#!/usr/bin/env bash
# mcptap ecosystem corpus, group "runtimes": the official TypeScript SDK (1.32.2) on the JavaScript runtimes and Node
# reverse proxies people deploy it on: its web-standard Streamable HTTP transport under Bun.serve and Deno.serve
# (runtimes/web-server.mjs), and its express server (runtimes/node-server.mjs) behind http-proxy-middleware on
# express, @fastify/http-proxy on fastify and plain http-proxy (runtimes/proxy.mjs). Clients: the TS SDK client
# (runtimes/client.mjs) on Node, Bun or Deno, and the official Python SDK client (mcp 2.3.0, the sdks group's venv,
# ../proxies2/py_client.py run from its path). Fully offline (a guard capture of all other traffic checks it),
# captured on loopback (127.0.0.1, ports 19490-19504 of the group's 19490-19509 only).
#
#   sudo bash samples/gen/ecosystem/runtimes.sh             # every scenario
#   sudo bash samples/gen/ecosystem/runtimes.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/runtimes-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   bun-sse-py         port 19490: Bun.serve + web-standard transport, SSE replies, the SDK example's InMemoryEventStore
#                      (ids, priming events); Python SDK client (mode="legacy"), 5 progress notifications, 12 s idle
#                      (longer than Bun.serve's default 10 s idleTimeout) with the GET stream open, add, DELETE
#   bun-json-ts        port 19491: Bun.serve, enableJsonResponse (JSON replies), no event store; the TS SDK client on
#                      Bun, 5 progress notifications, 12 s idle, add, DELETE
#   bun-events-ts      port 19501: Bun.serve, SSE replies, InMemoryEventStore; the TS SDK client on Node, 12 s idle
#   bun-idle-cut       port 19502: Bun.serve, SSE replies, no event store; the TS SDK client on Node; after the usual
#                      calls a slow_count(160) without progressToken: its POST stream is silent for 16 s (Bun.serve's
#                      default idleTimeout is 10 s), then add, DELETE
#   bun-idle-resume    port 19503: the same against Bun.serve with the InMemoryEventStore (a priming event with an id
#                      opens every POST stream)
#   deno-long          port 19504: the bun-idle-cut client run against Deno.serve (SSE replies, no event store)
#   deno-sse-ts        port 19492: Deno.serve, SSE replies, no event store; the TS SDK client on Deno, 3 s idle
#   hpm                ports 19494 (proxy) -> 19493: express + http-proxy-middleware 3 in front of the TS SDK express
#                      server (SSE replies, no ids); TS SDK client on Node, 16 s idle (past the SDK's 15 s
#                      keep-alive comment on the GET stream)
#   fastify-proxy      ports 19496 (proxy) -> 19495: fastify + @fastify/http-proxy 11; Python SDK client, 3 s idle
#   http-proxy         ports 19498 (proxy) -> 19497: node:http + http-proxy 1.18; TS SDK client on Node, 3 s idle
#   http-proxy-legacy  ports 19500 (proxy) -> 19499: http-proxy in front of the same server's HTTP+SSE (2024-11-05)
#                      endpoints (GET /sse, POST /messages?sessionId=); TS SDK SSEClientTransport on Node
# Each client run is bounded (timeout 60 here; inside the clients 20 s per request, 40 s for the long call, and
# 40 + (N + L)/10 + HOLD s for the whole TS client run, 30 + N/10 + HOLD s for the Python one).
#
# Needs root (tcpdump), tcpdump, tshark (runtimes/wire.py), node 20 + npm, python3. First use runs `npm ci` in
# runtimes/ (runtimes/package.json + package-lock.json, exact pins; bun and deno come as npm packages whose platform
# binaries are optional dependencies, @oven/bun-linux-x64 and @deno/linux-x64-glibc: no install script needs to run)
# and makes the sdks group's venv (lib.sh setup_pysdk). All git-ignored (runtimes/.gitignore).
# Results and labels: samples/ecosystem/runtimes.md, samples/ecosystem/labels-runtimes.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/runtimes"                                       # harness code, pins, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=runtimes
DESCRIBE=()                                             # set per scenario: wire.py needs the ports
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

PYC=("$ECO/sdks/.venv/bin/python" "$ECO/proxies2/py_client.py")   # mcp 2.3.0 client
BUN="$W/node_modules/.bin/bun"
DENO=("$W/node_modules/.bin/deno" run --no-lock --node-modules-dir=manual --allow-net=127.0.0.1 --allow-env --allow-read --allow-sys)
# No update checks, telemetry or prompts from the runtimes (the offline guard checks it).
export NODE_ENV=production DO_NOT_TRACK=1 DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 BUN_DISABLE_TELEMETRY=1 NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false

setup() {
    setup_pysdk
    need_npm "$W"
}

url() { echo "http://$HOST:$1${2:-/mcp}"; }

# direct NAME PORT SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up, capture of PORT, one bounded client
# run, stop, listing) inside a guard capture of every packet that is not 127.0.0.1 <-> 127.0.0.1.
direct() {
    local name=$1 port=$2
    shift 2
    DESCRIBE=(python3 "$W/wire.py" - "$port")
    free "$port"
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}

# proxied NAME KIND BACKEND FRONT CLIENT-CMD...: node-server.mjs on BACKEND, proxy.mjs KIND on FRONT -> BACKEND (both
# up before the capture starts), capture of both ports, one bounded client run against FRONT, stop, listing.
proxied() {
    local name=$1 kind=$2 backend=$3 front=$4
    shift 4
    DESCRIBE=(python3 "$W/wire.py" "$front" "$backend")
    free "$backend" "$front"
    guard_start "$name"
    server "$name-server" "$backend" node "$W/node-server.mjs" "$backend"
    server "$name-proxy" "$front" node "$W/proxy.mjs" "$kind" "$front" "$backend"
    capture_start "$name" "$front" "$backend"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_bun-sse-py()  { direct bun-sse-py 19490 "$BUN" "$W/web-server.mjs" 19490 --events -- "${PYC[@]}" "$(url 19490)" --slow 5 --hold 12; }
scenario_bun-json-ts() { direct bun-json-ts 19491 "$BUN" "$W/web-server.mjs" 19491 --json -- "$BUN" "$W/client.mjs" "$(url 19491)" 5 12; }
scenario_bun-events-ts() { direct bun-events-ts 19501 "$BUN" "$W/web-server.mjs" 19501 --events -- node "$W/client.mjs" "$(url 19501)" 5 12; }
scenario_bun-idle-cut()    { direct bun-idle-cut 19502 "$BUN" "$W/web-server.mjs" 19502 -- node "$W/client.mjs" "$(url 19502)" 5 0 --long=160; }
scenario_bun-idle-resume() { direct bun-idle-resume 19503 "$BUN" "$W/web-server.mjs" 19503 --events -- node "$W/client.mjs" "$(url 19503)" 5 0 --long=160; }
scenario_deno-long()   { direct deno-long 19504 "${DENO[@]}" "$W/web-server.mjs" 19504 -- node "$W/client.mjs" "$(url 19504)" 5 0 --long=160; }
scenario_deno-sse-ts() { direct deno-sse-ts 19492 "${DENO[@]}" "$W/web-server.mjs" 19492 -- "${DENO[@]}" "$W/client.mjs" "$(url 19492)" 5 3; }
scenario_hpm()           { proxied hpm hpm 19493 19494 node "$W/client.mjs" "$(url 19494)" 5 16; }
scenario_fastify-proxy() { proxied fastify-proxy fastify 19495 19496 "${PYC[@]}" "$(url 19496)" --slow 5 --hold 3; }
scenario_http-proxy()    { proxied http-proxy http-proxy 19497 19498 node "$W/client.mjs" "$(url 19498)" 5 3; }
scenario_http-proxy-legacy() { proxied http-proxy-legacy http-proxy 19499 19500 node "$W/client.mjs" "$(url 19500 /sse)" 5 3 --sse; }

ALL=(bun-sse-py bun-json-ts bun-events-ts bun-idle-cut bun-idle-resume deno-sse-ts deno-long hpm fastify-proxy http-proxy http-proxy-legacy)

run_scenarios "tcpdump tshark node npm python3" -- "$@"

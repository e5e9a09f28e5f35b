#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations5": hunting real traffic for MCP-SESSION-ROTATION and
# MCP-LEGACY-POST-ACCEPTED, the two rules that had never fired on real traffic (situations, situations2, situations3
# say why). Unmodified implementations with their defaults; our code is only the harness (start, SIGKILL, restart, the
# application's calls). Captured on loopback (127.0.0.1, ports 20170-20189 only), inside the offline guard.
#
#   sudo bash samples/gen/ecosystem/situations5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/situations5.sh SCENARIO..  # some of them
#
# Restart scenarios (capture samples/ecosystem/situations5-<scenario>.pcap): a stateful Python server
# (situations5/py_server.py KIND PORT NAME: add, echo; sessions in the memory of the process, the Python SDK's
# StreamableHTTPSessionManager underneath) is SIGKILLed in the middle of a client's session and a new process is
# started on the same port; the client (situations5/client.mjs KIND URL READY GO) goes on: initialize, tools/list,
# add, echo, [restart], add, echo, add, echo, close, 0.7 s apart.
#   fastmcp2-ai-sdk   20170  FastMCP 2.14.7 (mcp 1.30.0)  <- Vercel AI SDK @ai-sdk/mcp 2.0.99 (its own HTTP transport)
#   fastmcp3-ai-sdk   20171  FastMCP 3.4.11 (mcp 1.30.0)  <- AI SDK
#   pysdk1-ai-sdk     20172  Python SDK mcp 1.30.0's FastMCP (mcp.server.fastmcp)  <- AI SDK
#   fastmcp2-ts-sdk   20173  FastMCP 2.14.7  <- official TS SDK client 1.32.2 (the contrast: it keeps the dead id)
# Legacy-URL scenarios: @vercel/mcp-adapter 0.5.1 (situations5/vercel-server.mjs: the adapter's README route handler,
# served by @hono/node-server; Streamable HTTP /mcp stateless, HTTP+SSE /sse + /message through Redis; its own TS SDK
# 1.10.2) with a Redis of our own (Debian redis-server 7.0.15 on 127.0.0.1:20189, no persistence; its port is not
# captured). A client given the URL /sse, as users paste it:
#   vercel-fallback-ts 20174  the TS SDK 1.32.2 example `streamableHttpWithSseFallbackClient` (shipped in the package,
#                             unmodified; situations/node_modules), URL /sse
#   vercel-remote      20175  a stdio host -> mcp-remote 0.15.1 (defaults: http-first; ../situations/mcp_remote_client.mjs,
#                             callback port 20188), URL /sse
#   vercel-py          20176  the official Python SDK client mcp 2.3.0 `Client(URL)` defaults (situations5/py_client.py,
#                             the sdks group's venv), URL /sse
#   vercel-ai-sdk      20177  the AI SDK (situations5/client.mjs ai-sdk; it never gets past connecting, the client's
#                             own 40 s guard ends it), URL /sse
# Replica scenario: the same stateful Python server as two replicas behind nginx (Debian 12's 1.22, round-robin, the
# situations3 group's nginx.conf.in used by path: the usual MCP reverse-proxy snippet, no sticky sessions), as a
# deployment scaled to two processes without session affinity; the client's run as above, no restart (GO given at once):
#   rr-fastmcp2-ai-sdk nginx 20178 -> FastMCP 2.14.7 replicas 20179 (A) / 20180 (B)  <- AI SDK
# The Python venvs are other groups', used by path: gateways4/.venv-agw (fastmcp 2.14.7), gateways4/.venv-combiner
# (fastmcp 3.4.11), nonmcp3/.venv-mcp1 (mcp 1.30.0). The npm packages: situations5/package-lock.json (`npm ci`).
# Listings: agentsjs/wire.py (one hop) and replicas/wire.py (front and two replicas), run by the sdks group's venv
# python (sdks/.venv).
#
# Needs root (tcpdump), tcpdump, tshark, ss, node 20 + npm, python3, redis-server (`apt-get install -y redis-server`;
# run as our own process), nginx (`apt-get install -y nginx`; run as our own process with a private prefix). Results
# and labels: samples/ecosystem/situations5.md, samples/ecosystem/labels-situations5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/situations5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"
FASTMCP2="$ECO/gateways4/.venv-agw/bin/python"
FASTMCP3="$ECO/gateways4/.venv-combiner/bin/python"
MCP1="$ECO/nonmcp3/.venv-mcp1/bin/python"
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 FASTMCP_SHOW_CLI_BANNER=false FASTMCP_CHECK_FOR_UPDATES=off \
    OTEL_SDK_DISABLED=true MCP_REMOTE_CONFIG_DIR="$RUN/mcp-remote"

setup() {
    local p
    for p in "$SDKPY" "$FASTMCP2" "$FASTMCP3" "$MCP1"; do
        [ -x "$p" ] || { echo "missing $p: run that group's setup first" >&2; exit 1; }
    done
    need_npm "$W"
}

# restart NAME PORT CLIENT-KIND PYTHON SERVER-KIND: server boot 1 up on PORT, capture of PORT inside the offline
# guard, the client run in the background; on READY a SIGKILL to the server's process group, server boot 2 on PORT,
# GO once it listens (socket table, no probe); the client's end, capture stop, everything down.
restart() {
    local name=$1 port=$2 kind=$3 py=$4 skind=$5 ready="$RUN/$1.ready" go="$RUN/$1.go" pid1 cpid i rc=0
    rm -f "$ready" "$go"
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    server "$name-server-1" "$port" "$py" "$W/py_server.py" "$skind" "$port" "situations5-boot1"
    pid1=$LAST_PID
    capture_start "$name" "$port"
    (cd "$W" && timeout 60 node client.mjs "$kind" "http://$HOST:$port/mcp" "$ready" "$go") >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do { [ -s "$ready" ] || ! kill -0 "$cpid" 2>/dev/null; } && break; sleep 0.1; done
    if [ -s "$ready" ]; then
        echo "   $(date +%s.%N) SIGKILL to server boot 1"
        stop "$pid1" KILL
        bg "$name-server-2" "$py" "$W/py_server.py" "$skind" "$port" "situations5-boot2"
        listening "$port"
        echo "   $(date +%s.%N) server boot 2 listens; GO"
    else
        echo "   the client did not reach READY: no restart"
    fi
    touch "$go"
    wait "$cpid" || rc=$?
    grep -vE '^\s+at |^\s*$' "$RUN/$name-client.log" | cut -c1-200 | tail -40 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# legacy NAME PORT SECONDS CLIENT-CMD...: Redis and the adapter server up (before the capture), capture of PORT inside
# the offline guard, one client run bounded by SECONDS, capture stop, everything down.
legacy() {
    local name=$1 port=$2 secs=$3 rc=0; shift 3
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    free "$port" 20189 20188
    bg "$name-redis" redis-server --port 20189 --bind 127.0.0.1 --save "" --appendonly no
    listening 20189
    server "$name-server" "$port" node "$W/vercel-server.mjs" "$port" 20189
    capture_start "$name" "$port"
    # the client in its own process group (bg), so that what it leaves behind (mcp-remote, orphaned when its host
    # exits) is stopped with it
    rm -f "$RUN/$name-client.log"
    bg "$name-client" timeout "$secs" "$@"
    wait "$LAST_PID" || rc=$?
    stop "$LAST_PID" KILL
    grep -vE '^\s+at |^\s*$' "$RUN/$name-client.log" | cut -c1-200 | tail -30 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# rr NAME FRONT A B CLIENT-KIND PYTHON SERVER-KIND: two replicas of py_server.py behind nginx round-robin, capture of
# all three ports inside the offline guard, one client run (GO given before it starts: no restart), everything down.
rr() {
    local name=$1 front=$2 a=$3 b=$4 kind=$5 py=$6 skind=$7 d="$RUN/nginx-$1" rc=0
    DESCRIBE=("$SDKPY" "$ECO/replicas/wire.py" "$front" "$a" "$b")
    guard_start "$name"
    free "$front" "$a" "$b"
    rm -rf "$d"; mkdir -p "$d/tmp"
    server "$name-a" "$a" "$py" "$W/py_server.py" "$skind" "$a" "situations5-replica-a"
    server "$name-b" "$b" "$py" "$W/py_server.py" "$skind" "$b" "situations5-replica-b"
    sed -e "s/@FRONT@/$front/g" -e "s/@A@/$a/g" -e "s/@B@/$b/g" "$ECO/situations3/nginx.conf.in" >"$d/nginx.conf"
    bg "$name-nginx" nginx -p "$d" -c nginx.conf -e stderr
    listening "$front"
    sleep 0.5
    capture_start "$name" "$front" "$a" "$b"
    touch "$RUN/$name.go"
    (cd "$W" && timeout 60 node client.mjs "$kind" "http://$HOST:$front/mcp" "$RUN/$name.ready" "$RUN/$name.go") >"$RUN/$name-client.log" 2>&1 || rc=$?
    grep -vE '^\s+at |^\s*$' "$RUN/$name-client.log" | cut -c1-200 | tail -30 | sed "s/^/   $name-client: /" || true
    [ "$rc" -eq 0 ] || echo "   ($name-client exited with $rc)"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_fastmcp2-ai-sdk() { restart fastmcp2-ai-sdk 20170 ai-sdk "$FASTMCP2" fastmcp; }
scenario_fastmcp3-ai-sdk() { restart fastmcp3-ai-sdk 20171 ai-sdk "$FASTMCP3" fastmcp; }
scenario_pysdk1-ai-sdk() { restart pysdk1-ai-sdk 20172 ai-sdk "$MCP1" sdk; }
scenario_fastmcp2-ts-sdk() { restart fastmcp2-ts-sdk 20173 ts-sdk "$FASTMCP2" fastmcp; }

scenario_vercel-fallback-ts() {
    legacy vercel-fallback-ts 20174 100 node "$ECO/situations/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/client/streamableHttpWithSseFallbackClient.js" "http://$HOST:20174/sse"
}
scenario_vercel-remote() {
    legacy vercel-remote 20175 60 node "$ECO/situations/mcp_remote_client.mjs" "http://$HOST:20175/sse" 20188
}
scenario_vercel-py() { legacy vercel-py 20176 100 "$SDKPY" "$W/py_client.py" "http://$HOST:20176/sse"; }
scenario_vercel-ai-sdk() {
    legacy vercel-ai-sdk 20177 100 node "$W/client.mjs" ai-sdk "http://$HOST:20177/sse" "$RUN/vercel-ai-sdk.ready" "$RUN/vercel-ai-sdk.go"
}
scenario_rr-fastmcp2-ai-sdk() { rr rr-fastmcp2-ai-sdk 20178 20179 20180 ai-sdk "$FASTMCP2" fastmcp; }

ALL=(fastmcp2-ai-sdk fastmcp3-ai-sdk pysdk1-ai-sdk fastmcp2-ts-sdk vercel-fallback-ts vercel-remote vercel-py vercel-ai-sdk rr-fastmcp2-ai-sdk)

run_scenarios "tcpdump tshark ss node redis-server nginx" -- "$@"

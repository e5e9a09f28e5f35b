#!/usr/bin/env bash
# mcptap ecosystem corpus, group "load2": third-party MCP servers (not the official Python/TypeScript SDK servers,
# which the "load" group covers) under concurrency: six requests of one session in flight at once (two ~2 s
# slow_count(20) calls streaming 20 notifications/progress each, four instant calls), two sessions at once on one
# server (an official TypeScript SDK client and an official Python SDK client started together), each session's
# standalone GET stream open meanwhile, and, where the server keeps an event store, a client that drops a POST stream
# mid-call and resumes it with `GET` + `Last-Event-ID`. Nothing is tuned for the analyzer. Plain HTTP/1.1, captured
# on loopback (127.0.0.1, ports 19350-19369 only); an offline guard (lib.sh guard_start/guard_stop) watches every
# other interface during each scenario.
#
#   sudo bash samples/gen/ecosystem/load2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/load2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/load2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   fastmcp-ts-parallel  FastMCP for TypeScript (npm fastmcp 4.20.16 on mcp-proxy 6.7.19; the fastmcp-ts group's
#                        server, ../fastmcp-ts/server.mjs, its defaults: stateful, SSE replies, mcp-proxy's
#                        per-session InMemoryEventStore) on 19350; a TS client and a Python client together, each
#                        `parallel` (below)
#   fastmcp-ts-resume    the same server on 19351; one TS client `resume` (below)
#   gosdk-parallel       the official Go SDK (go-sdk v1.7.0, load2/go/main.go: StreamableHTTPHandler, stateful, SSE
#                        replies, EventStore = mcp.NewMemoryEventStore(nil)) on 19352; TS + Python clients together
#   gosdk-resume         the same server on 19353; one TS client `resume`
#   fastmcp-py-parallel  FastMCP (PyPI fastmcp 4.1.6; load2/load2_py.py server --store: http_app on /mcp, stateful,
#                        SSE replies, event_store=fastmcp.server.event_store.EventStore()) under uvicorn on 19354;
#                        TS + Python clients together
#   fastmcp-py-resume    the same server on 19355; one TS client `resume`
#
# Client runs: `parallel`: initialize, tools/list, then six tools/call at once (TS: one Promise.all; Python: one anyio
# task group), issued as slow_count(20) with a progressToken, add(1,2), echo("fast 1"), slow_count(20), add(3,4),
# echo("fast 2"); then add(40,2), DELETE, close. `resume` (TS only: the TS SDK exposes resumption to the application,
# `onresumptiontoken` / `resumptionToken`): initialize, tools/list, slow_count(20); after its 5th progress
# notification the client closes its transport (the POST stream's connection is dropped), 0.5 s later it reconnects to
# the same session and resumes with `GET /mcp` + `Last-Event-ID: <the last id it saw>`; then add(40,2), DELETE. See
# load2/client.mjs and load2/load2_py.py. Bounded: every client under timeout 60 (lib.sh run, or here), a 40 s guard
# inside the TS client and 15 s request timeouts, asyncio.timeout(30) in the Python client; no loop is unbounded.
#
# Reused by path, not copied: ../fastmcp-ts/server.mjs and its node_modules (`npm ci` in fastmcp-ts/ on first use),
# the TS SDK 1.32.2 client from ../load/node_modules (`npm ci` in load/), the Python SDK client mcp 2.3.0 and FastMCP
# 4.1.6 from the sdks group's venv (../sdks/.venv, ../sdks/requirements.txt), Go 1.27.3 from the go-sdk group's
# ../go-sdk/.venv-go and the go-sdk sources laid out under ../go-sdk/src (see go-sdk.sh; load2/go/go.mod's `replace`
# directives point there; built offline, GOPROXY=off, into load2/go/build), the listing script
# ../agentsjs/wire.py (tshark). Needs root (tcpdump), tcpdump, tshark, node 20 + npm, ss. All build output, logs and
# scratch are git-ignored (load2/.gitignore). Results and labels: samples/ecosystem/load2.md,
# samples/ecosystem/labels-load2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/load2"                                          # harness code
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
VPY="$ECO/sdks/.venv/bin/python"                        # mcp 2.3.0 + fastmcp 4.1.6 (sdks group)
GOSDK="$W/go/build/load2-gosdk"
GROUP=load2
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, server, run, capture_start/stop, guard_*, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"
export FASTMCP_CHECK_FOR_UPDATES=off                     # FastMCP checks PyPI only for its CLI banner (not used here); off anyway

setup() {
    setup_pysdk
    need_npm "$ECO/load"
    need_npm "$ECO/fastmcp-ts"
    [ -x "$GOSDK" ] && return 0
    [ -d "$ECO/go-sdk/src/modelcontextprotocol/go-sdk" ] || {
        echo "no sources in go-sdk/src (see go-sdk.sh and samples/ecosystem/go-sdk.md)" >&2; exit 1; }
    need_venv "$ECO/go-sdk/.venv-go" "$ECO/go-sdk/requirements-go.txt" go
    (cd "$W/go" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOPATH="$W/go/gopath" GOCACHE="$W/go/gopath/cache" \
        "$ECO/go-sdk/.venv-go/bin/go" build -p 2 -o "$GOSDK" .)
}

# mcp_server KIND(fastmcp-ts|gosdk|fastmcp-py) NAME PORT: the server, up before the capture starts.
mcp_server() {
    case $1 in
        fastmcp-ts) server "$2" "$3" node "$ECO/fastmcp-ts/server.mjs" "$3" ;;
        gosdk) server "$2" "$3" "$GOSDK" --port "$3" --store ;;
        fastmcp-py) server "$2" "$3" "$VPY" "$W/load2_py.py" server --port "$3" --store ;;
    esac
}

# together NAME URL: a TS and a Python client (`parallel`) started at once, both waiting for a common start 3 s ahead
# (LOAD_START_AT: Python needs about a second to import the SDK, Node a tenth of that); logs run/NAME-{ts,py}.log.
together() {
    local name=$1 url=$2 start pts ppy rc
    start=$(($(date +%s%3N) + 3000))
    LOAD_START_AT=$start timeout 60 node "$W/client.mjs" "$url" parallel 1 >"$RUN/$name-ts.log" 2>&1 &
    pts=$!
    LOAD_START_AT=$start timeout 60 "$VPY" "$W/load2_py.py" client --url "$url" >"$RUN/$name-py.log" 2>&1 &
    ppy=$!
    for k in ts py; do
        rc=0
        if [ "$k" = ts ]; then wait "$pts" || rc=$?; else wait "$ppy" || rc=$?; fi
        grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-$k.log" | grep -v progress | cut -c1-150 | tail -14 \
            | sed "s/^/   $name-$k: /" || true
        [ "$rc" -eq 0 ] || echo "   ($name-$k exited with $rc)"
    done
}

# scenario_parallel NAME KIND PORT / scenario_resume NAME KIND PORT
parallel_run() {
    local name=$1 kind=$2 port=$3
    free "$port"; rm -f "$RUN/$name"-*.log
    DESCRIBE=("$VPY" "$ECO/agentsjs/wire.py" - "$port")
    mcp_server "$kind" "$name-server" "$port"
    guard_start "$name"
    capture_start "$name" "$port"
    together "$name" "http://$HOST:$port/mcp"
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}
resume_run() {
    local name=$1 kind=$2 port=$3
    free "$port"; rm -f "$RUN/$name"-*.log
    DESCRIBE=("$VPY" "$ECO/agentsjs/wire.py" - "$port")
    mcp_server "$kind" "$name-server" "$port"
    guard_start "$name"
    capture_start "$name" "$port"
    run "$name-client" node "$W/client.mjs" "http://$HOST:$port/mcp" resume
    capture_stop "$name"
    guard_stop "$name"
    cleanup
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_fastmcp-ts-parallel() { parallel_run fastmcp-ts-parallel fastmcp-ts 19350; }
scenario_fastmcp-ts-resume() { resume_run fastmcp-ts-resume fastmcp-ts 19351; }
scenario_gosdk-parallel() { parallel_run gosdk-parallel gosdk 19352; }
scenario_gosdk-resume() { resume_run gosdk-resume gosdk 19353; }
scenario_fastmcp-py-parallel() { parallel_run fastmcp-py-parallel fastmcp-py 19354; }
scenario_fastmcp-py-resume() { resume_run fastmcp-py-resume fastmcp-py 19355; }

ALL=(fastmcp-ts-parallel fastmcp-ts-resume gosdk-parallel gosdk-resume fastmcp-py-parallel fastmcp-py-resume)

run_scenarios "tcpdump tshark node npm ss" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "restartjs": what third-party JavaScript/TypeScript MCP clients (and the official TS
# SDK client) really do when a stateful server loses their session: the server process is killed (SIGKILL) in the
# middle of a client's session and a new one started on the same port; the sessions lived in the old process's memory,
# so the client's next request with its old Mcp-Session-Id is answered 404 -32001 "Session not found". Fully offline
# (no LLM: each framework's MCP objects driven directly; telemetry and tracing off as agentsjs.sh does it, and a guard
# capture of every non-loopback packet checks it), captured on loopback (127.0.0.1, ports 19230-19237 only).
#
#   sudo bash samples/gen/ecosystem/restartjs.sh             # every scenario
#   sudo bash samples/gen/ecosystem/restartjs.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/restartjs-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt),
# each against restartjs/ts-server.mjs (below), one client (restartjs/client.mjs KIND, see there):
#   ts-sdk         port 19230: official TS SDK client 1.32.2 (Client + StreamableHTTPClientTransport)
#   mastra         port 19231: Mastra @mastra/mcp 2.0.0 MCPClient (TS SDK v2 client @modelcontextprotocol/client 2.0.0)
#   openai-agents  port 19232: OpenAI Agents SDK @openai/agents-core 0.20.0 MCPServerStreamableHttp (TS SDK v2 client)
#   genkit         port 19233: Genkit @genkit-ai/mcp 1.42.0 createMcpClient (TS SDK 1.32.2 client)
#   langchain      port 19234: LangChain.js @langchain/mcp-adapters 1.1.4 MultiServerMCPClient (TS SDK 1.32.2 client)
#   ai-sdk         port 19235: Vercel AI SDK @ai-sdk/mcp 2.0.99 createMCPClient (its own transport)
#   cut-ts-sdk     port 19236: the TS SDK client again, the restart cutting an open SSE reply: slow_count(30) with a
#                  progress token, the server killed about 1 s into it; the request timeout set to 8 s (client.mjs)
#   cut-mastra     port 19237: the same with Mastra (enableProgressTracking on, MCPClient timeout 8 s)
# Each client run: initialize, tools/list, add(1,2), echo("hello"), [restart], add(40,2), echo("again"), close, 0.7 s
# apart (restartjs/client.mjs). The restart: the client writes run/NAME.ready after echo and waits for run/NAME.go
# (--cut: it writes READY and starts slow_count); this script (1 s later with --cut) kills the server's process group
# with SIGKILL, starts a new server process on the port (boot 2), waits until it listens (the socket table, no probe
# connection), and touches GO. Each client run is bounded (timeout 60 here, a 40 s guard inside).
#
# Server (restartjs/ts-server.mjs PORT BOOT): the official TS SDK 1.32.2 server on express 5 with the session routing
# of the SDK's own example server (examples/server/simpleStreamableHttp.js in the 1.32.2 package: sessionIdGenerator
# randomUUID, sessions in a map in memory, no event store, SSE replies; an unknown session id: 404 -32001 "Session
# not found"), the tool set of ts_common.mjs; its serverInfo name says which process (boot 1 or 2) answered an
# initialize. (The agentsjs/agents groups' ts-server.mjs, the SDK README's routing, answers an unknown session 400
# -32000 instead: replicas-replica-restart.pcap has that case.) The Python SDK server (py_server.py) is not used: it
# answers 2026-07-28 `server/discover`, so the TS SDK v2 clients (Mastra, OpenAI Agents) and the AI SDK run stateless
# against it with no session to lose (agentsjs-mastra-py.pcap, indie-ai-sdk-to-py.pcap).
#
# Nothing is installed here: restartjs/load.mjs loads every npm package from the agentsjs, agents (LangChain) and indie
# (AI SDK) groups' node_modules by path (require resolved from those folders; their package-lock.json pin the
# versions). Run those groups' setup first if their node_modules are missing (agentsjs.sh, agents.sh, indie.sh: `npm
# ci` from their locks). The listing is agentsjs/wire.py, run by the sdks group's venv python (sdks/.venv).
# Needs root (tcpdump), tcpdump, tshark, ss, node 20. Results and labels: samples/ecosystem/restartjs.md,
# samples/ecosystem/labels-restartjs.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/restartjs"                                      # client driver, server, loader
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, READY/GO files, the offline guard's captures
GROUP=restartjs
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, listening, free, capture_start/stop, guard
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # runs agentsjs/wire.py (tshark underneath)
export MASTRA_TELEMETRY_DISABLED=1 OPENAI_AGENTS_DISABLE_TRACING=1 DO_NOT_TRACK=1 GENKIT_TELEMETRY=false \
    GENKIT_ENV=prod NEXT_TELEMETRY_DISABLED=1

setup() {
    local d
    for d in agentsjs agents indie; do
        [ -d "$ECO/$d/node_modules" ] || { echo "missing $d/node_modules: run that group's setup (npm ci in samples/gen/ecosystem/$d)" >&2; exit 1; }
    done
    setup_pysdk
}

# restart NAME PORT KIND [--cut]: server boot 1 up on PORT, capture of PORT inside the offline guard, the client run
# in the background; on READY (--cut: 1 s later) SIGKILL to the server's process group, server boot 2 on PORT, GO
# once it listens; the client's end, capture stop, everything down. The script log says when (epoch seconds) it
# killed and when boot 2 listened.
restart() {
    local name=$1 port=$2 kind=$3 cut=${4:-} ready="$RUN/$1.ready" go="$RUN/$1.go" pid1 cpid i rc=0
    rm -f "$ready" "$go"
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    server "$name-server-1" "$port" node "$W/ts-server.mjs" "$port" 1
    pid1=$LAST_PID
    capture_start "$name" "$port"
    timeout 60 node "$W/client.mjs" "$kind" "http://$HOST:$port/mcp" "$ready" "$go" $cut >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    for i in $(seq 1 300); do { [ -s "$ready" ] || ! kill -0 "$cpid" 2>/dev/null; } && break; sleep 0.1; done
    if [ -s "$ready" ]; then
        [ -z "$cut" ] || sleep 1
        echo "   $(date +%s.%N) SIGKILL to server boot 1"
        stop "$pid1" KILL
        bg "$name-server-2" node "$W/ts-server.mjs" "$port" 2
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

# --------------------------------------------------------------------------------------------- scenarios
scenario_ts-sdk() { restart ts-sdk 19230 ts-sdk; }
scenario_mastra() { restart mastra 19231 mastra; }
scenario_openai-agents() { restart openai-agents 19232 openai-agents; }
scenario_genkit() { restart genkit 19233 genkit; }
scenario_langchain() { restart langchain 19234 langchain; }
scenario_ai-sdk() { restart ai-sdk 19235 ai-sdk; }
scenario_cut-ts-sdk() { restart cut-ts-sdk 19236 ts-sdk --cut; }
scenario_cut-mastra() { restart cut-mastra 19237 mastra --cut; }

ALL=(ts-sdk mastra openai-agents genkit langchain ai-sdk cut-ts-sdk cut-mastra)

run_scenarios "tcpdump tshark ss node" -- "$@"

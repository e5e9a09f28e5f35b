#!/usr/bin/env bash
# mcptap ecosystem corpus, group "tasks": MCP 2025-11-25 tasks (task-augmented tools/call answered with a task
# handle, then tasks/get polling, tasks/result long-polls, tasks/list, tasks/cancel, notifications/tasks/status) as a
# real SDK ships them, over Streamable HTTP, plus a plain long tools/call with progress for contrast.
# Server and client: the TypeScript SDK @modelcontextprotocol/sdk 1.32.2 with its "experimental tasks" API
# (tasks/server.mjs: McpServer + InMemoryTaskStore, stateful, SDK defaults; tasks/client.mjs: Client +
# StreamableHTTPClientTransport, callToolStream / getTask / getTaskResult / listTasks / cancelTask). Captured on
# loopback (127.0.0.1, ports 20590-20609):
#   ts-short          :20590  three task calls delay(300) through callToolStream (tasks/get polled every
#                             pollInterval = 1000 ms, then tasks/result), then tasks/list
#   ts-poll           :20591  one task delay(12000) through callToolStream: tasks/get polled 13 times
#   ts-longpoll       :20592  tools/call with params.task, then tasks/result at once, held 12 s until the task ends
#   ts-longpoll-75s   :20593  the same with a 75 s task and the tasks/result timeout raised to 90000 ms (the SDK
#                             default is 60000): one request held 75 s, longer than mcptap's 60 s stall threshold
#   ts-longpoll-timeout :20599  the same with a 70 s task and the SDK's default request timeout (60000 ms): the
#                             client gives up on tasks/result at 60 s and closes (its notifications/cancelled
#                             never reaches the wire)
#   ts-cancel         :20594  a task delay(20000), tasks/get, tasks/cancel 3 s later, tasks/get, tasks/list
#   ts-newconn        :20595  process 1 initializes and starts a task delay(10000), exits without DELETE; 2 s later
#                             process 2 (new TCP connections, same Mcp-Session-Id, no initialize) sends tasks/get,
#                             then tasks/result (held until the task ends), then DELETE
#   ts-progress       :20596  a plain tools/call slow(15) with a progressToken: 15 progress notifications on its
#                             SSE reply, then the result
# FastMCP 4.1.4 + fastmcp-tasks 4.1.4 (the SEP-2663 `io.modelcontextprotocol/tasks` extension, docket in memory; no
# tasks/result: the result comes inlined in the terminal tasks/get), tasks/fastmcp_server.py (analyze(secs), task=True,
# progress each second) and tasks/fastmcp_client.py (FastMCP Client):
#   fastmcp-call      :20597  client.call_tool("analyze", secs=12): the client polls tasks/get to the end
#   fastmcp-cancel    :20598  call_tool_task(analyze, secs=20), tasks/get, 3 s later tasks/cancel, wait()
# (ports 20608-20609 were used for trial runs outside any capture.)
#
#   sudo bash samples/gen/ecosystem/tasks.sh             # every scenario
#   sudo bash samples/gen/ecosystem/tasks.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/tasks-<scenario>.pcap, listings samples/gen/wire/ecosystem/tasks-<scenario>.pcap.txt
# (../agents/wire.py - PORT...). Each client run is bounded (timeout); every process is stopped after its scenario; a
# guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), node 20 + npm, python3 (for the listing). First use installs
# tasks/node_modules (`npm ci`, tasks/package-lock.json) and the venv tasks/.venv-fastmcp (requirements-fastmcp.txt).
# Nothing else is installed.
# Results and labels: samples/ecosystem/tasks.md, samples/ecosystem/labels-tasks.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/tasks"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=tasks
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

SERVER=(node "$W/server.mjs")       # PORT
CLIENT=(node "$W/client.mjs")       # MODE URL [args]

FM=("$W/.venv-fastmcp/bin/python")

setup() { need_npm "$W"; need_venv "$W/.venv-fastmcp" "$W/requirements-fastmcp.txt"; }
U() { echo "http://$HOST:$1/mcp"; }

down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# begin NAME PORT...: guard on, ports free, old logs gone, DESCRIBE set for these ports.
begin() {
    local name=$1; shift
    DESCRIBE=(python3 "$ECO/agents/wire.py" - "$@")
    guard_start "$name"
    free "$@"
    rm -f "$RUN/$name"-*.log
}
# finish NAME: capture stop and listing, everything down, guard off, the logs' tails shown.
finish() {
    local name=$1 f
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
client() {
    local name=$1 t=$2; shift 2
    timeout "$t" "${CLIENT[@]}" "$@" >>"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
}
# one NAME PORT TIMEOUT MODE [args]: server up, capture, one client run, 1 s, capture stop.
one() {
    local name=$1 port=$2 t=$3; shift 3
    begin "$name" "$port"
    bg "$name-server" "${SERVER[@]}" "$port"
    listening "$port"
    capture_start "$name" "$port"
    client "$name" "$t" "$1" "$(U "$port")" "${@:2}"
    sleep 1
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_ts-short() { one ts-short 20590 60 short; }
scenario_ts-poll() { one ts-poll 20591 60 poll 12000; }
scenario_ts-longpoll() { one ts-longpoll 20592 60 longpoll 12000; }
scenario_ts-longpoll-75s() { one ts-longpoll-75s 20593 120 longpoll 75000 90000; }
scenario_ts-longpoll-timeout() { one ts-longpoll-timeout 20599 120 longpoll 70000; }
scenario_ts-cancel() { one ts-cancel 20594 60 cancel 20000; }
scenario_ts-newconn() {
    local name=ts-newconn port=20595 sid task
    begin "$name" "$port"
    bg "$name-server" "${SERVER[@]}" "$port"
    listening "$port"
    capture_start "$name" "$port"
    client "$name" 60 start "$(U "$port")" 10000
    read -r _ sid _ task < <(grep '^SESSION ' "$RUN/$name-client.log")
    sleep 2
    client "$name" 60 fetch "$(U "$port")" "$sid" "$task"
    sleep 1
    finish "$name"
}
scenario_ts-progress() { one ts-progress 20596 60 progress 15; }

fastmcp() {
    local name=$1 port=$2; shift 2
    begin "$name" "$port"
    bg "$name-server" "${FM[@]}" "$W/fastmcp_server.py" "$port"
    listening "$port"
    capture_start "$name" "$port"
    timeout 60 "${FM[@]}" "$W/fastmcp_client.py" "$1" "$(U "$port")" "$2" >"$RUN/$name-client.log" 2>&1 \
        || echo "   ($name client exited with $?)"
    sleep 1
    finish "$name"
}
scenario_fastmcp-call() { fastmcp fastmcp-call 20597 call 12; }
scenario_fastmcp-cancel() { fastmcp fastmcp-cancel 20598 cancel 20; }

ALL=(ts-short ts-poll ts-longpoll ts-longpoll-75s ts-longpoll-timeout ts-cancel ts-newconn ts-progress fastmcp-call fastmcp-cancel)

run_scenarios "tcpdump tshark ss node python3" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers4": three more published MCP servers from PyPI that serve Streamable HTTP
# and HTTP+SSE, run against the official SDK clients (Python SDK `mcp` 2.3.0, TS SDK 1.32.2) with their defaults,
# fully offline. Captured on loopback (127.0.0.1, ports 20110-20120 and 20128-20129 of the group's 20110-20129).
#
#   sudo bash samples/gen/ecosystem/pyservers4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers4.sh SCENARIO..  # some of them
#
# Servers:
#   - duckduckgo-mcp-server 0.7.0 (`--transport streamable-http sse`): the Python SDK mcp 2.3.0 `MCPServer`, its
#     streamable_http_app (/mcp, stateful) and sse_app (/sse, /messages/) in one Starlette app of its own with
#     CORSMiddleware, under uvicorn. Tools search (DuckDuckGo: never called), fetch_content (an SSRF guard refuses
#     loopback unless --allow-private-urls; then it fetches this script's page on 127.0.0.1:20128), expand_link.
#   - markitdown-mcp 0.0.1a8 (`--http`): the SDK 2.3.0 `MCPServer` with streamable_http_app(json_response=True,
#     stateless_http=True) and sse_app in one Starlette app. One tool, convert_to_markdown(uri): data: URIs here
#     (no file: URI, whose path would be this machine's), and a refused http://127.0.0.1:20129 URI.
#   - astro-airflow-mcp 0.9.1 (`--transport http`): FastMCP 3.4.11 (`mcp.run(transport="http")`) on the Python SDK
#     mcp 1.30.0 transport, stateful. Its Airflow is the refused 127.0.0.1:20129: every tool reports the failed
#     version probe as text.
#
# Scenarios (capture samples/ecosystem/pyservers4-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/pyservers4-<scenario>.pcap.txt):
#   ddg-py          20110  Python SDK client (legacy) -> ddg /mcp (SSRF guard on): fetch_content of the loopback page
#                          (refused by the guard), fetch_content with a number as url (validation error), unknown
#                          tool nosuch; DELETE (the SDK's close)
#   ddg-ts          20111  TS SDK client -> ddg /mcp with --allow-private-urls: fetch_content of the loopback page
#                          (127.0.0.1:20128, not captured), expand_link of an unknown token, nosuch; terminateSession
#   ddg-sse         20112  Python SDK client over sse_client -> ddg /sse: fetch_content (guard on), expand_link
#   ddg-restart-ts  20113  TS SDK client (idle 8 s after tools/list) -> ddg /mcp; during the idle the server is
#                          stopped, its port seen free, started again: three calls and the DELETE carry the old id
#   md-py           20114  Python SDK client (mode auto: server/discover first) -> markitdown /mcp: a data: URI, the
#                          refused http URI, nosuch
#   md-ts           20115  TS SDK client -> markitdown /mcp: a data: URI, a missing argument, nosuch;
#                          terminateSession (no session id: nothing sent)
#   md-sse          20116  TS SDK SSEClientTransport -> markitdown /sse: a data: URI
#   md-restart-ts   20120  TS SDK client (idle 8 s) -> markitdown /mcp, restarted during the idle: a stateless server
#                          has no session to lose; two data: URI calls after the restart
#   airflow-py      20117  Python SDK client (legacy) -> astro-airflow-mcp /mcp: list_dags, get_airflow_version
#                          (Airflow refused), nosuch
#   airflow-ts      20118  TS SDK client -> the same: list_dags, get_dag_details without its argument; terminateSession
#   airflow-restart-py 20119 Python SDK client (legacy, idle 8 s) -> astro-airflow-mcp /mcp, restarted during the idle:
#                          three calls (list_dags, get_airflow_version, list_pools) and the DELETE carry the old id
#
# Each client run is bounded (timeout 60 here; 30-40 s plus the idle inside the clients; 10-15 s per request). Each
# server is up before its capture starts (its port seen listening in the socket table, no probe) and stopped after
# it (SIGINT to its process group, SIGKILL a second later). No network beyond 127.0.0.1: DO_NOT_TRACK=1,
# OTEL_SDK_DISABLED=true, FASTMCP_CHECK_FOR_UPDATES=off, AF_TELEMETRY_DISABLED=1 (astro-airflow-mcp sends a
# telemetry event to api.astronomer.io from a detached subprocess on each tool call otherwise: a first run's guard
# saw its DNS queries), the only URLs any tool is given are data: URIs and 127.0.0.1 ones (DuckDuckGo's search is
# never called); a guard capture on every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark (../nonmcp3/wire.py, which imports ../replicas/wire.py by path), ss
# (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes pyservers4/.venv-ddg, .venv-markitdown and
# .venv-airflow from pyservers4/requirements-{ddg,markitdown,airflow}.txt (pip freeze of the installs), the sdks
# group's venv sdks/.venv (the Python SDK 2.3.0 client; also runs wire.py) and servers4/node_modules (`npm ci`: the
# TS SDK 1.32.2 of servers4/ts_driver.mjs, run by path). All git-ignored. Results and labels:
# samples/ecosystem/pyservers4.md, samples/ecosystem/labels-pyservers4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/pyservers4"                                     # client, pins, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures, the page
GROUP=pyservers4
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 FASTMCP_CHECK_FOR_UPDATES=off AF_TELEMETRY_DISABLED=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; runs wire.py
PY=("$SDKPY" "$W/py_client.py")                         # URL [--sse] [--mode auto] [--sleep S] [--call T J]...
TS=(node "$ECO/servers4/ts_driver.mjs")                 # http|sse URL [--call T J]... [--sleep S] [--delete]
PAGEPORT=20128                                          # the loopback page ddg-ts fetches (not captured)
DEADPORT=20129                                          # nothing listens there: Airflow, markitdown's http URI

DDG=(env -C "$RUN" HOME="$RUN" "$W/.venv-ddg/bin/duckduckgo-mcp-server" --transport streamable-http sse --host "$HOST")
MD=(env -C "$RUN" HOME="$RUN" "$W/.venv-markitdown/bin/markitdown-mcp" --http --host "$HOST")
AIRFLOW=(env -C "$RUN" HOME="$RUN" "$W/.venv-airflow/bin/astro-airflow-mcp" --transport http --host "$HOST"
         --airflow-url "http://$HOST:$DEADPORT")

setup() {
    setup_pysdk
    need_venv "$W/.venv-ddg" "$W/requirements-ddg.txt" duckduckgo-mcp-server
    need_venv "$W/.venv-markitdown" "$W/requirements-markitdown.txt" markitdown-mcp
    need_venv "$W/.venv-airflow" "$W/requirements-airflow.txt" astro-airflow-mcp
    need_npm "$ECO/servers4"
    mkdir -p "$RUN/www"
    printf '%s\n' '<!doctype html><html><head><title>mcptap page</title></head><body><nav>menu</nav><h1>Loopback page</h1><p>Served on 127.0.0.1 for the pyservers4 group.</p></body></html>' >"$RUN/www/index.html"
}

# down: SIGINT to each server's process group, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}

# page_up: the loopback page (Python's http.server) on PAGEPORT, for ddg-ts's fetch_content.
page_up() { bg page python3 -m http.server "$PAGEPORT" --bind "$HOST" --directory "$RUN/www"; listening "$PAGEPORT"; }

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT (listening, no probe), capture of
# PORT, one bounded client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

# restart NAME PORT SERVER-CMD... -- CLIENT-CMD...: as scenario, but the client runs in the background and 4.5 s after
# it starts the server is stopped (SIGINT, then SIGKILL), its port seen free in the socket table, and the same server
# command started again (the client idles 8 s after tools/list, so its calls and its DELETE reach the new process).
restart() {
    local name=$1 port=$2 cpid
    shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 4.5
    down
    PIDS=()
    free "$port"
    echo "   server stopped, port free; starting it again"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    wait "$cpid" || echo "   ($name-client exited with $?)"
    grep -vE '^\s+(at |File )|Traceback|^\s*$' "$RUN/$name-client.log" | cut -c1-150 | tail -20 | sed "s/^/   $name-client: /" || true
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1$2"; }
PAGE="http://$HOST:$PAGEPORT/"
DATA_HTML='data:text/html;base64,PGgxPkhlbGxvPC9oMT48cD50YXA8L3A+'         # <h1>Hello</h1><p>tap</p>
DATA_CSV='data:text/csv;base64,bmFtZSxwb3J0CnRhcCwyMDExNQp3aXJlLDIwMTE2Cg=='  # name,port / tap,20115 / wire,20116

# --------------------------------------------------------------------------------------------- scenarios
scenario_ddg-py() {
    scenario ddg-py 20110 "${DDG[@]}" --port 20110 -- "${PY[@]}" "$(U 20110 /mcp)" \
        --call fetch_content "{\"url\":\"$PAGE\"}" --call fetch_content '{"url":5}' --call nosuch '{}'
}
scenario_ddg-ts() {
    page_up
    scenario ddg-ts 20111 "${DDG[@]}" --port 20111 --allow-private-urls -- "${TS[@]}" http "$(U 20111 /mcp)" \
        --call fetch_content "{\"url\":\"$PAGE\"}" --call expand_link '{"token":"ref://nope"}' --call nosuch '{}' --delete
}
scenario_ddg-sse() {
    scenario ddg-sse 20112 "${DDG[@]}" --port 20112 -- "${PY[@]}" "$(U 20112 /sse)" --sse \
        --call fetch_content "{\"url\":\"$PAGE\"}" --call expand_link '{"token":"ref://nope"}'
}
scenario_ddg-restart-ts() {
    restart ddg-restart-ts 20113 "${DDG[@]}" --port 20113 -- "${TS[@]}" http "$(U 20113 /mcp)" --sleep 8 \
        --call expand_link '{"token":"ref://nope"}' --call expand_link '{"token":"ref://again"}' \
        --call expand_link '{"token":"ref://third"}' --delete
}
scenario_md-py() {
    scenario md-py 20114 "${MD[@]}" --port 20114 -- "${PY[@]}" "$(U 20114 /mcp)" --mode auto \
        --call convert_to_markdown "{\"uri\":\"$DATA_HTML\"}" --call convert_to_markdown "{\"uri\":\"$(U $DEADPORT /x.html)\"}" \
        --call nosuch '{}'
}
scenario_md-ts() {
    scenario md-ts 20115 "${MD[@]}" --port 20115 -- "${TS[@]}" http "$(U 20115 /mcp)" \
        --call convert_to_markdown "{\"uri\":\"$DATA_CSV\"}" --call convert_to_markdown '{}' --call nosuch '{}' --delete
}
scenario_md-sse() {
    scenario md-sse 20116 "${MD[@]}" --port 20116 -- "${TS[@]}" sse "$(U 20116 /sse)" \
        --call convert_to_markdown "{\"uri\":\"$DATA_HTML\"}"
}
scenario_md-restart-ts() {
    restart md-restart-ts 20120 "${MD[@]}" --port 20120 -- "${TS[@]}" http "$(U 20120 /mcp)" --sleep 8 \
        --call convert_to_markdown "{\"uri\":\"$DATA_HTML\"}" --call convert_to_markdown "{\"uri\":\"$DATA_CSV\"}" --delete
}
scenario_airflow-py() {
    scenario airflow-py 20117 "${AIRFLOW[@]}" --port 20117 -- "${PY[@]}" "$(U 20117 /mcp)" \
        --call list_dags '{}' --call get_airflow_version '{}' --call nosuch '{}'
}
scenario_airflow-ts() {
    scenario airflow-ts 20118 "${AIRFLOW[@]}" --port 20118 -- "${TS[@]}" http "$(U 20118 /mcp)" \
        --call list_dags '{}' --call get_dag_details '{}' --delete
}
scenario_airflow-restart-py() {
    restart airflow-restart-py 20119 "${AIRFLOW[@]}" --port 20119 -- "${PY[@]}" "$(U 20119 /mcp)" --sleep 8 \
        --call list_dags '{}' --call get_airflow_version '{}' --call list_pools '{}'
}

ALL=(ddg-py ddg-ts ddg-sse ddg-restart-ts md-py md-ts md-sse md-restart-ts airflow-py airflow-ts airflow-restart-py)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

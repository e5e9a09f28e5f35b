#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers4": more published MCP servers (PyPI, npm) that serve MCP over HTTP, each run
# with its own defaults (and its own HTTP options: stateless mode, JSON responses, HTTP+SSE, a bearer token) against
# the official SDK clients (TS SDK 1.32.2, Python SDK `mcp` 2.3.0) with theirs, fully offline: every database these
# servers front is pointed at 127.0.0.1:19909, where nothing listens (their tools fail cleanly), telemetry is off, and
# a guard capture of all other traffic checks it. Captured on loopback (127.0.0.1, ports 19890-19909 only).
#
#   sudo bash samples/gen/ecosystem/servers4.sh             # every scenario
#   sudo bash samples/gen/ecosystem/servers4.sh SCENARIO..  # some of them
#
# Servers:
#   - mcp-server-motherduck 1.1.0 (PyPI; `--transport http`, `--stateless-http`): FastMCP 4.2.3 (standalone fastmcp,
#     on the Python SDK mcp 2.3.0) under uvicorn 0.55.0 / starlette 1.10.0, an in-memory DuckDB 1.5.6 (`--read-write`,
#     which an in-memory database needs; DuckDB's home is the scratch folder). Its queries run locally.
#   - mcp-clickhouse 0.7.0 (PyPI; CLICKHOUSE_MCP_SERVER_TRANSPORT=http|sse): FastMCP 4.0.11 under uvicorn, its own
#     bearer-token check (CLICKHOUSE_MCP_AUTH_TOKEN); ClickHouse is the refused 127.0.0.1:19909.
#   - mongodb-mcp-server 3.0.4 (npm; `--transport http`): its own express server around the TS SDK transports, with
#     its own session table, keep-alive pings and an option for JSON responses (MDB_MCP_HTTP_RESPONSE_TYPE=json);
#     MongoDB is the refused 127.0.0.1:19909; MDB_MCP_TELEMETRY=disabled.
#
# Scenarios (capture samples/ecosystem/servers4-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   motherduck-ts         19890  TS SDK client -> motherduck /mcp: execute_query (SELECT 42), list_databases, DELETE
#   motherduck-py         19891  Python SDK client (mode auto: server/discover first) -> the same
#   motherduck-stateless  19892  TS SDK client -> motherduck --stateless-http: execute_query, a bad SQL query, DELETE
#   clickhouse-ts         19894  TS SDK client (Authorization: Bearer) -> mcp-clickhouse /mcp: list_databases,
#                                run_query (ClickHouse refused), DELETE
#   clickhouse-py         19895  Python SDK client (auto, bearer) -> the same
#   clickhouse-sse        19896  TS SDK SSEClientTransport (bearer) -> mcp-clickhouse in sse mode, /sse
#   clickhouse-noauth     19897  TS SDK client without the token -> mcp-clickhouse /mcp: the server's 401
#   mongodb-ts            19898  TS SDK client -> mongodb-mcp-server /mcp: connect (MongoDB refused), find, DELETE
#   mongodb-py            19899  Python SDK client (auto) -> the same
#   mongodb-json          19900  TS SDK client -> mongodb-mcp-server with MDB_MCP_HTTP_RESPONSE_TYPE=json
#   mongodb-keepalive     19901  TS SDK client -> mongodb-mcp-server, idle 40 s after tools/list with its GET stream
#                                open (the server's 30 s keep-alive `ping` on it), then find, DELETE
#
# Each client run is bounded (timeout 60 here, 40 s inside the drivers, 15 s per request). Every server is up before
# its capture starts (its port seen listening in the socket table, no probe) and stopped after it.
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, the agents group's listing), ss, python3 (3.11) with venv,
# node 20 + npm. First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0 client; also runs wire.py),
# servers4/.venv-motherduck and .venv-clickhouse from servers4/requirements-{motherduck,clickhouse}.txt and
# servers4/node_modules (`npm ci`: mongodb-mcp-server and the TS SDK 1.32.2 client). The drivers are this group's own:
# servers4/ts_driver.mjs and servers4/py_driver.py. All installs git-ignored (servers4/.gitignore). Results and
# labels: samples/ecosystem/servers4.md, samples/ecosystem/labels-servers4.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers4"                                       # drivers, pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the servers' cwd and HOME
GROUP=servers4
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, need_npm, need_venv, free, listening, capture_*
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true MDB_MCP_TELEMETRY=disabled FASTMCP_SHOW_CLI_BANNER=false
export PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; also runs wire.py
NM="$W/node_modules"
DEADPORT=19909                                          # every database: nothing listens there (refused at once)

setup() {
    setup_pysdk
    need_venv "$W/.venv-motherduck" "$W/requirements-motherduck.txt" mcp-server-motherduck
    need_venv "$W/.venv-clickhouse" "$W/requirements-clickhouse.txt" mcp-clickhouse
    need_npm "$W"
    mkdir -p "$RUN/home"
}

TS=(node "$W/ts_driver.mjs")                            # http|sse URL [--header H:V] [--call N J]... [--delete]
PY=("$SDKPY" "$W/py_driver.py")                         # http|sse URL [--header H:V] [--call N J]...

# Server commands (the port is an argument or an environment prefix given by each scenario).
# motherduck (MOTHERDUCK --port N [--stateless-http]): in-memory DuckDB, HOME and DuckDB's home in RUN/home.
MOTHERDUCK=(env -C "$RUN" HOME="$RUN/home" "$W/.venv-motherduck/bin/mcp-server-motherduck" --transport http
            --host "$HOST" --home-dir "$RUN/home" --read-write)
# mcp-clickhouse (env CLICKHOUSE_MCP_BIND_PORT=N CLICKHOUSE; clickhouse-sse swaps its
# CLICKHOUSE_MCP_SERVER_TRANSPORT=http for sse): plain HTTP to
# the refused port, a dummy password, its bearer token.
CH_TOKEN=mcptap-offline-clickhouse
CLICKHOUSE=(env -C "$RUN" HOME="$RUN/home" CLICKHOUSE_MCP_SERVER_TRANSPORT=http CLICKHOUSE_MCP_BIND_HOST="$HOST"
            CLICKHOUSE_MCP_AUTH_TOKEN="$CH_TOKEN" CLICKHOUSE_HOST="$HOST" CLICKHOUSE_PORT="$DEADPORT"
            CLICKHOUSE_SECURE=false CLICKHOUSE_USER=default CLICKHOUSE_PASSWORD=offline CLICKHOUSE_CONNECT_TIMEOUT=3
            "$W/.venv-clickhouse/bin/mcp-clickhouse")
# mongodb-mcp-server (env MDB_MCP_HTTP_PORT=N MONGODB): its logs to stderr (not to HOME's log folder), telemetry
# off (exported above), no connection string at start (the connect tool is given the refused one).
MONGODB=(env -C "$RUN" HOME="$RUN/home" MDB_MCP_TRANSPORT=http MDB_MCP_HTTP_HOST="$HOST" MDB_MCP_LOGGERS=stderr
         node "$NM/mongodb-mcp-server/dist/esm/index.js")

# one NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up (listening, no probe), capture of PORT, one
# bounded client run, capture stop and listing, server down, guard off.
one() {
    local name=$1 port=$2 srv=()
    shift 2
    while [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 2
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -4 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
MD_CALLS=(--call execute_query '{"sql":"SELECT 42 AS answer, version() AS duckdb"}' --call list_databases '{}')
scenario_motherduck-ts() { one motherduck-ts 19890 "${MOTHERDUCK[@]}" --port 19890 -- "${TS[@]}" http "$(U 19890 /mcp)" "${MD_CALLS[@]}" --delete; }
scenario_motherduck-py() { one motherduck-py 19891 "${MOTHERDUCK[@]}" --port 19891 -- "${PY[@]}" http "$(U 19891 /mcp)" "${MD_CALLS[@]}"; }
scenario_motherduck-stateless() {
    one motherduck-stateless 19892 "${MOTHERDUCK[@]}" --port 19892 --stateless-http -- "${TS[@]}" http "$(U 19892 /mcp)" \
        --call execute_query '{"sql":"SELECT range AS n FROM range(3)"}' --call execute_query '{"sql":"SELEC nonsense"}' --delete
}
CH_HDR="Authorization:Bearer $CH_TOKEN"
CH_CALLS=(--header "$CH_HDR" --call list_databases '{}' --call run_query '{"query":"SELECT 1"}')
scenario_clickhouse-ts() { one clickhouse-ts 19894 env CLICKHOUSE_MCP_BIND_PORT=19894 "${CLICKHOUSE[@]}" -- "${TS[@]}" http "$(U 19894 /mcp)" "${CH_CALLS[@]}" --delete; }
scenario_clickhouse-py() { one clickhouse-py 19895 env CLICKHOUSE_MCP_BIND_PORT=19895 "${CLICKHOUSE[@]}" -- "${PY[@]}" http "$(U 19895 /mcp)" "${CH_CALLS[@]}"; }
scenario_clickhouse-sse() {
    one clickhouse-sse 19896 env CLICKHOUSE_MCP_BIND_PORT=19896 "${CLICKHOUSE[@]/%TRANSPORT=http/TRANSPORT=sse}" \
        -- "${TS[@]}" sse "$(U 19896 /sse)" "${CH_CALLS[@]}"
}
scenario_clickhouse-noauth() {
    one clickhouse-noauth 19897 env CLICKHOUSE_MCP_BIND_PORT=19897 "${CLICKHOUSE[@]}" -- "${TS[@]}" http "$(U 19897 /mcp)" \
        --call list_databases '{}'
}
MONGO_CALLS=(--call connect "{\"connectionString\":\"mongodb://$HOST:$DEADPORT/?serverSelectionTimeoutMS=1500\"}"
             --call find '{"database":"test","collection":"items","filter":{}}')
scenario_mongodb-ts() { one mongodb-ts 19898 env MDB_MCP_HTTP_PORT=19898 "${MONGODB[@]}" -- "${TS[@]}" http "$(U 19898 /mcp)" "${MONGO_CALLS[@]}" --delete; }
scenario_mongodb-py() { one mongodb-py 19899 env MDB_MCP_HTTP_PORT=19899 "${MONGODB[@]}" -- "${PY[@]}" http "$(U 19899 /mcp)" "${MONGO_CALLS[@]}"; }
scenario_mongodb-json() {
    one mongodb-json 19900 env MDB_MCP_HTTP_PORT=19900 MDB_MCP_HTTP_RESPONSE_TYPE=json "${MONGODB[@]}" \
        -- "${TS[@]}" http "$(U 19900 /mcp)" "${MONGO_CALLS[@]}" --delete
}

# mongodb-keepalive: the client idles 40 s (the run's 60 s bound leaves room) so the server's keep-alive loop (every
# 30 s on the session's standalone stream) shows on the wire.
scenario_mongodb-keepalive() {
    one mongodb-keepalive 19901 env MDB_MCP_HTTP_PORT=19901 "${MONGODB[@]}" \
        -- "${TS[@]}" http "$(U 19901 /mcp)" --sleep 40 --call find '{"database":"test","collection":"items","filter":{}}' --delete
}

ALL=(motherduck-ts motherduck-py motherduck-stateless clickhouse-ts clickhouse-py clickhouse-sse clickhouse-noauth
     mongodb-ts mongodb-py mongodb-json mongodb-keepalive)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

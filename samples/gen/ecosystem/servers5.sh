#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers5": three more published MCP servers (PyPI, npm) that serve MCP over
# Streamable HTTP, each with HTTP code of its own kind (a FastMCP-less low-level Python SDK server mounted in its own
# Starlette app, a stateless Python SDK 2.3.0 server behind its own bearer check, an express app around the old TS SDK
# 1.15.1 stateless transport), run against the official SDK clients (TS SDK 1.32.2, Python SDK `mcp` 2.3.0) with their
# defaults, fully offline: every backend these servers front is on loopback (a MariaDB this script starts on
# 127.0.0.1:20068, a refused 127.0.0.1:20069 for Jupyter), telemetry is off, and a guard capture of all other traffic
# checks it. Captured on loopback (127.0.0.1, ports 20050-20069 only).
#
#   sudo bash samples/gen/ecosystem/servers5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/servers5.sh SCENARIO..  # some of them
#
# Servers:
#   - jupyter-mcp-server 2.2.4 (PyPI; `start --transport streamable-http`): the Python SDK mcp 2.3.0 (stateless: no
#     Mcp-Session-Id, it says so at start) under uvicorn 0.55.0 / starlette 1.10.0, with its own bearer check
#     (`--mcp-token`); its Jupyter server is the refused 127.0.0.1:20069, no kernel started
#     (`--start-new-code-sandbox false`).
#   - arxiv-mcp-server 0.8.2 (PyPI; TRANSPORT=http): a low-level `mcp.server.Server` (mcp 1.30.0) behind the SDK's
#     StreamableHTTPSessionManager, mounted at /mcp in its own Starlette app (with /healthz) under uvicorn, its own
#     DNS-rebinding allow-lists (loopback Hosts and Origins). Only list_papers (local storage, in the scratch folder)
#     is called: no arXiv request.
#   - @benborla29/mcp-server-mysql 2.0.9 (npm; IS_REMOTE_MCP=true with REMOTE_SECRET_KEY): an express 5.3.0 app around
#     the TS SDK 1.15.1 StreamableHTTPServerTransport in stateless mode (a new server and transport per POST), its own
#     bearer check, GET and DELETE answered 405 by hand; it binds every interface (no host option), only loopback
#     talks to it. Its MySQL is a MariaDB 10.11 (Debian's mariadb-server) this script starts on 127.0.0.1:20068 with a
#     scratch data folder, database `shop`, table `items`, a SELECT-only user.
#
# Scenarios (capture samples/ecosystem/servers5-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   jupyter-py      20050  Python SDK client (mode auto: server/discover first; bearer) -> jupyter /mcp: list_notebooks,
#                          list_kernels (Jupyter refused: a tool error)
#   jupyter-ts      20051  TS SDK client (bearer) -> the same, then terminateSession() (no session id: no DELETE)
#   jupyter-noauth  20052  TS SDK client without the token -> jupyter /mcp: the server's 401
#   arxiv-ts        20053  TS SDK client -> arxiv /mcp (the Mount's 307 to /mcp/): list_papers, DELETE
#   arxiv-py        20054  Python SDK client (auto) -> the same, list_papers
#   arxiv-origin    20055  TS SDK client sending `Origin: http://evil.example` -> arxiv /mcp: the 403
#   mysql-ts        20056  TS SDK client (bearer) -> mcp-server-mysql /mcp: SELECT, a refused DELETE, terminateSession
#   mysql-py        20057  Python SDK client (auto, bearer) -> the same: SELECT
#   mysql-noauth    20058  TS SDK client without the token -> mcp-server-mysql /mcp: the server's 401
#
# Each client run is bounded (timeout 60 here, 40 s inside the drivers, 15 s per request). Every server is up before
# its capture starts (its port seen listening in the socket table, no probe) and stopped after it.
#
# Needs root (tcpdump, mariadbd --user=root), tcpdump, tshark (agents/wire.py, the agents group's listing), ss,
# python3 (3.11) with venv, node 20 + npm, Debian's mariadb-server (mariadbd, mariadb-install-db, mariadb; not run
# as a service: `apt-get install --no-install-recommends mariadb-server`). First use makes the sdks group's venv
# sdks/.venv (the Python SDK 2.3.0 client; also runs wire.py), servers5/.venv-jupyter and .venv-arxiv from
# servers5/requirements-{jupyter,arxiv}.txt and servers5/node_modules (`npm ci`: mcp-server-mysql; servers5/.npmrc
# skips install scripts). The clients are the servers4 group's drivers, run by path (servers4/ts_driver.mjs with
# servers4/node_modules' TS SDK 1.32.2, and servers4/py_driver.py), so servers4's node_modules must be installed (this
# setup runs need_npm there too). All installs git-ignored (servers5/.gitignore). Results and labels:
# samples/ecosystem/servers5.md, samples/ecosystem/labels-servers5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers5"                                       # pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the servers' cwd and HOME, MariaDB's data
GROUP=servers5
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, need_npm, need_venv, capture_*, guard_*
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; also runs wire.py
DEADPORT=20069                                          # Jupyter: nothing listens there (refused at once)
DBPORT=20068                                            # the MariaDB of the mysql scenarios

setup() {
    setup_pysdk
    need_venv "$W/.venv-jupyter" "$W/requirements-jupyter.txt" jupyter-mcp-server
    need_venv "$W/.venv-arxiv" "$W/requirements-arxiv.txt" arxiv-mcp-server
    need_npm "$W"
    need_npm "$ECO/servers4"
    mkdir -p "$RUN/home/papers"
}

TS=(node "$ECO/servers4/ts_driver.mjs")                 # http|sse URL [--header H:V] [--call N J]... [--delete]
PY=("$SDKPY" "$ECO/servers4/py_driver.py")              # http|sse URL [--header H:V] [--call N J]...

# Server commands (the port is an argument or an environment prefix given by each scenario).
JUPYTER_TOKEN=mcptap-offline-jupyter
JUPYTER=(env -C "$RUN" HOME="$RUN/home" "$W/.venv-jupyter/bin/jupyter-mcp-server" start --transport streamable-http
         --host "$HOST" --mcp-token "$JUPYTER_TOKEN" --jupyter-url "http://$HOST:$DEADPORT" --jupyter-token offline
         --start-new-code-sandbox false)
ARXIV=(env -C "$RUN" HOME="$RUN/home" TRANSPORT=http HOST="$HOST" "$W/.venv-arxiv/bin/arxiv-mcp-server"
       --storage-path "$RUN/home/papers")
MYSQL_KEY=mcptap-offline-mysql
MYSQL=(env -C "$RUN" HOME="$RUN/home" IS_REMOTE_MCP=true REMOTE_SECRET_KEY="$MYSQL_KEY" MYSQL_HOST="$HOST"
       MYSQL_PORT="$DBPORT" MYSQL_USER=mcp MYSQL_PASS=offline MYSQL_DB=shop
       node "$W/node_modules/@benborla29/mcp-server-mysql/dist/index.js")

# mariadb_up / mariadb_down: a MariaDB of its own (data in RUN/mysql, made anew each time) on 127.0.0.1:DBPORT,
# database shop with two rows and a SELECT-only user mcp; not in any capture (its port is not captured).
MARIADB_PID=""
mariadb_up() {
    local d="$RUN/mysql"
    rm -rf "$d"; mkdir -p "$d"
    mariadb-install-db --no-defaults --datadir="$d/data" --user=root --auth-root-authentication-method=normal \
        --skip-test-db >"$d/install.log" 2>&1
    bg mariadb timeout 300 mariadbd --no-defaults --datadir="$d/data" --port="$DBPORT" --bind-address="$HOST" \
        --socket="$d/sock" --pid-file="$d/pid" --user=root --skip-log-bin --skip-name-resolve
    MARIADB_PID=$LAST_PID
    listening "$DBPORT"
    mariadb --no-defaults -S "$d/sock" -uroot -e "CREATE DATABASE shop; CREATE TABLE shop.items(id INT PRIMARY KEY,
        name VARCHAR(40)); INSERT INTO shop.items VALUES (1,'tap'),(2,'wire'); CREATE USER 'mcp'@'$HOST' IDENTIFIED
        BY 'offline'; GRANT SELECT ON shop.* TO 'mcp'@'$HOST';"
}
mariadb_down() { [ -z "$MARIADB_PID" ] || stop "$MARIADB_PID"; MARIADB_PID=""; }

# any_listening PORT: like lib.sh's listening, for a server bound to every interface (mcp-server-mysql: *:PORT).
any_listening() {
    local i
    for i in $(seq 1 300); do [ -n "$(ss -Hltn "sport = :$1")" ] && return 0; sleep 0.1; done
    echo "nothing listens on port $1" >&2; return 1
}

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
    any_listening "$port"
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
J_CALLS=(--header "Authorization:Bearer $JUPYTER_TOKEN" --call list_notebooks '{}' --call list_kernels '{}')
scenario_jupyter-py() { one jupyter-py 20050 "${JUPYTER[@]}" --port 20050 -- "${PY[@]}" http "$(U 20050 /mcp)" "${J_CALLS[@]}"; }
scenario_jupyter-ts() { one jupyter-ts 20051 "${JUPYTER[@]}" --port 20051 -- "${TS[@]}" http "$(U 20051 /mcp)" "${J_CALLS[@]}" --delete; }
scenario_jupyter-noauth() {
    one jupyter-noauth 20052 "${JUPYTER[@]}" --port 20052 -- "${TS[@]}" http "$(U 20052 /mcp)" --call list_notebooks '{}'
}
A_CALLS=(--call list_papers '{}' --call list_papers '{"compact":true}')
scenario_arxiv-ts() { one arxiv-ts 20053 env PORT=20053 "${ARXIV[@]}" -- "${TS[@]}" http "$(U 20053 /mcp)" "${A_CALLS[@]}" --delete; }
scenario_arxiv-py() { one arxiv-py 20054 env PORT=20054 "${ARXIV[@]}" -- "${PY[@]}" http "$(U 20054 /mcp)" "${A_CALLS[@]}"; }
scenario_arxiv-origin() {
    one arxiv-origin 20055 env PORT=20055 "${ARXIV[@]}" -- "${TS[@]}" http "$(U 20055 /mcp)" \
        --header "Origin:http://evil.example" --call list_papers '{}'
}
M_HDR="Authorization:Bearer $MYSQL_KEY"
scenario_mysql-ts() {
    mariadb_up
    one mysql-ts 20056 env PORT=20056 "${MYSQL[@]}" -- "${TS[@]}" http "$(U 20056 /mcp)" --header "$M_HDR" \
        --call mysql_query '{"sql":"SELECT id, name FROM items ORDER BY id"}' --call mysql_query '{"sql":"DELETE FROM items"}' --delete
    mariadb_down
}
scenario_mysql-py() {
    mariadb_up
    one mysql-py 20057 env PORT=20057 "${MYSQL[@]}" -- "${PY[@]}" http "$(U 20057 /mcp)" --header "$M_HDR" \
        --call mysql_query '{"sql":"SELECT COUNT(*) AS n FROM items"}'
    mariadb_down
}
scenario_mysql-noauth() {
    mariadb_up
    one mysql-noauth 20058 env PORT=20058 "${MYSQL[@]}" -- "${TS[@]}" http "$(U 20058 /mcp)" \
        --call mysql_query '{"sql":"SELECT 1"}'
    mariadb_down
}

ALL=(jupyter-py jupyter-ts jupyter-noauth arxiv-ts arxiv-py arxiv-origin mysql-ts mysql-py mysql-noauth)

run_scenarios "tcpdump tshark ss node npm mariadbd mariadb-install-db mariadb" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers5": three Python MCP servers from PyPI whose HTTP side is their own (their
# own FastAPI/Starlette/ASGI routing, mounts, auth middleware around the SDK's transport), run against the official
# SDK clients (Python SDK `mcp` 2.3.0, TS SDK 1.32.2) with their defaults, fully offline. Captured on loopback
# (127.0.0.1, ports 20310-20319 of the group's 20310-20329).
#
#   sudo bash samples/gen/ecosystem/pyservers5.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers5.sh SCENARIO..  # some of them
#
# Servers:
#   - litserve 0.2.19 (Lightning AI's model server): two LitAPI endpoints (/add, /divide) given `mcp=MCP(...)`;
#     litserve mounts its own Starlette app at "/" of its FastAPI app with a Mount("/mcp/") around the mcp 1.30.0
#     StreamableHTTPSessionManager (stateless, JSON responses) and its own 500 JSON error path; a tools/call runs the
#     endpoint's FastAPI handler, i.e. litserve's inference worker process (pyservers5/lit_server.py).
#   - marimo 0.25.2 `marimo edit --mcp` (the notebook editor's MCP server): the SDK 2.3.0 `MCPServer`
#     streamable_http_app(stateless_http=True) mounted at /mcp (endpoint /mcp/server) in marimo's own Starlette app,
#     behind its auth middleware (access_token query / cookie) and a RequiresEdit middleware of its own (403
#     {"detail":"Forbidden"}). Notebook pyservers5/nb.py, fixed token password, headless, no update check.
#   - datasette 0.65.5 + datasette-mcp 0.3: a Datasette plugin that registers /-/mcp in Datasette's own ASGI router
#     and hands the request, path rewritten to "/", to the SDK 2.3.0 `MCPServer` streamable_http_app(json_response=
#     True) (stateful, sessions in the SDK manager); CSRF skipped for POST/DELETE. Database made by pyservers5/mkdb.py.
#
# Scenarios (capture samples/ecosystem/pyservers5-<scenario>.pcap, listing
# samples/gen/wire/ecosystem/pyservers5-<scenario>.pcap.txt):
#   lit-ts           20310  TS SDK client -> litserve http://127.0.0.1:20310/mcp (no slash: litserve's mount answers
#                           307 to /mcp/ and fetch follows): add, divide, divide by 0, nope, add("x"), add
#   lit-py           20311  Python SDK client (mode auto: server/discover first) -> litserve /mcp/: the same calls
#   lit-restart      20312  TS SDK client -> litserve /mcp, paused before the first call while the server is stopped
#                           (SIGTERM to its process group), its port seen free, started again; then the calls
#   marimo-ts        20313  TS SDK client -> marimo /mcp/server?access_token=...: get_active_notebooks,
#                           get_notebook_errors / lint_notebook of an unknown session, nope, get_active_notebooks
#   marimo-py        20314  Python SDK client (mode auto) -> marimo: the same calls
#   marimo-restart   20315  TS SDK client -> marimo, paused before the first call while marimo is restarted
#   marimo-forbidden 20316  TS SDK client without the access token (refused), then one with it
#   ds-ts            20317  TS SDK client -> datasette /-/mcp: list_databases, get_database_schema, execute_sql
#                           (a select, a delete refused, an unknown database), nope, a select; terminateSession
#   ds-py            20318  Python SDK client (mode legacy: initialize) -> datasette /-/mcp: the same calls; DELETE
#   ds-restart       20319  TS SDK client -> datasette /-/mcp, paused before the first call while datasette is
#                           restarted: the calls carry the old session id
#
# Each client run is bounded (timeout 60; the clients end themselves after 50 s, 10 s per request). Each server is
# up before its capture starts (its port seen listening in the socket table, no probe) and stopped after it. No network
# beyond 127.0.0.1: DO_NOT_TRACK=1, MARIMO_SKIP_UPDATE_CHECK=1 and --skip-update-check (marimo asks PyPI for a newer
# version otherwise), marimo's get_marimo_rules tool (which fetches docs.marimo.io) is never called; a guard capture on
# every interface (lib.sh guard_start/guard_stop) checks it.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes
# pyservers5/.venv-litserve, .venv-marimo, .venv-datasette from pyservers5/requirements-*.txt (pip freezes; litserve's
# MCP code imports mcp.server.fastmcp and checks for the fastmcp package, so its venv holds mcp 1.30.0 and fastmcp
# 2.14.7), the sdks group's venv sdks/.venv (Python SDK 2.3.0 client; also runs wire.py) and pyservers5/node_modules
# (`npm ci`: TS SDK 1.32.2; agents/wire.py makes the listings). All git-ignored. Results and labels: samples/ecosystem/pyservers5.md,
# samples/ecosystem/labels-pyservers5.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/pyservers5"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=pyservers5
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 MARIMO_SKIP_UPDATE_CHECK=1 NO_UPDATE_NOTIFIER=1
SDKPY="$ECO/sdks/.venv/bin/python"
TOKEN=pyservers5

setup() {
    setup_pysdk
    need_npm "$W"
    local v
    for v in litserve marimo datasette; do need_venv "$W/.venv-$v" "$W/requirements-$v.txt"; done
}

# srv KIND PORT LOG: one server in the background (cwd and HOME RUN/<scenario>), its pid in SRV_PID.
SRV_PID=""
srv() {
    local dir="$RUN/$SCN"
    mkdir -p "$dir"
    case $1 in
        lit)      bg "$3" env -C "$dir" HOME="$dir" "$W/.venv-litserve/bin/python" "$W/lit_server.py" "$2" ;;
        marimo)   cp "$W/nb.py" "$dir/nb.py"
                  bg "$3" env -C "$dir" HOME="$dir" "$W/.venv-marimo/bin/marimo" edit nb.py --headless --host "$HOST" \
                      -p "$2" --mcp --token-password "$TOKEN" --skip-update-check ;;
        ds)       [ -f "$dir/demo.db" ] || "$SDKPY" "$W/mkdb.py" "$dir/demo.db"
                  bg "$3" env -C "$dir" HOME="$dir" "$W/.venv-datasette/bin/datasette" serve demo.db -h "$HOST" -p "$2" ;;
    esac
    SRV_PID=$LAST_PID
}

# scenario NAME PORT KIND MODE -- CLIENT... [-- CLIENT2...]: guard on, the server up, capture of its port, the
# client(s) one after the other (MODE no), or (MODE restart) the client paused while the server is stopped (SIGTERM
# to its process group) and a new one started on the port; capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2 kind=$3 mode=$4 c
    shift 4; [ "$1" = "--" ] && shift
    local cl=() cl2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cl+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    cl2=("$@")
    SCN=$name
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$port"
    srv "$kind" "$port" "$name-server"; local pid=$SRV_PID; listening "$port"
    sleep 2
    capture_start "$name" "$port"
    case $mode in
        restart)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 & c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
            echo "   restarting (SIGTERM) the server on $port"
            stop "$pid"
            free "$port"
            srv "$kind" "$port" "$name-server2"; listening "$port"
            sleep 2
            touch "$RUN/$name/go"
            wait $c || echo "   (client exited with $?)"
            ;;
        *)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
            if [ ${#cl2[@]} -gt 0 ]; then
                sleep 0.5
                timeout 60 "${cl2[@]}" >>"$RUN/$name-client.log" 2>&1 || echo "   (client 2 exited with $?)"
            fi
            ;;
    esac
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-150 | sed "s/^/   client: /" || true
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}

R() { echo "$RUN/$1"; }
TS=(node "$W/ps5_client.mjs")
PY=("$SDKPY" "$W/ps5_client.py")
LIT="$W/steps-lit.json"; MAR="$W/steps-marimo.json"; DS="$W/steps-ds.json"
mu() { echo "http://$HOST:$1/mcp/server?access_token=$TOKEN"; }
du() { echo "http://$HOST:$1/-/mcp"; }

scenario_lit-ts()      { scenario lit-ts 20310 lit no -- "${TS[@]}" "http://$HOST:20310/mcp" "$LIT" A; }
scenario_lit-py()      { scenario lit-py 20311 lit no -- "${PY[@]}" "http://$HOST:20311/mcp/" "$LIT" --tag P --mode auto; }
scenario_lit-restart() {
    scenario lit-restart 20312 lit restart -- "${TS[@]}" "http://$HOST:20312/mcp" "$LIT" A 0 \
        "$(R lit-restart)/A.ready" "$(R lit-restart)/go"
}
scenario_marimo-ts()   { scenario marimo-ts 20313 marimo no -- "${TS[@]}" "$(mu 20313)" "$MAR" A; }
scenario_marimo-py()   { scenario marimo-py 20314 marimo no -- "${PY[@]}" "$(mu 20314)" "$MAR" --tag P --mode auto; }
scenario_marimo-restart() {
    scenario marimo-restart 20315 marimo restart -- "${TS[@]}" "$(mu 20315)" "$MAR" A 0 \
        "$(R marimo-restart)/A.ready" "$(R marimo-restart)/go"
}
scenario_marimo-forbidden() {
    scenario marimo-forbidden 20316 marimo no -- "${TS[@]}" "http://$HOST:20316/mcp/server" "$MAR" N \
        -- "${TS[@]}" "$(mu 20316)" "$MAR" A
}
scenario_ds-ts()       { scenario ds-ts 20317 ds no -- "${TS[@]}" "$(du 20317)" "$DS" A; }
scenario_ds-py()       { scenario ds-py 20318 ds no -- "${PY[@]}" "$(du 20318)" "$DS" --tag P --mode legacy; }
scenario_ds-restart()  {
    scenario ds-restart 20319 ds restart -- "${TS[@]}" "$(du 20319)" "$DS" A 0 \
        "$(R ds-restart)/A.ready" "$(R ds-restart)/go"
}

ALL=(lit-ts lit-py lit-restart marimo-ts marimo-py marimo-restart marimo-forbidden ds-ts ds-py ds-restart)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

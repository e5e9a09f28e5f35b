#!/usr/bin/env bash
# mcptap ecosystem corpus, group "pyservers": Python MCP servers on something other than the official SDK's own
# Starlette app under uvicorn, driven by the official clients. Captured on loopback (127.0.0.1, ports 19190-19209 only):
#   - the official Python SDK server (mcp 2.3.0 MCPServer, ../pysdk_tools.py tools) under **hypercorn** 0.18.0 over
#     HTTP/1.1 (pyservers/hyper_server.py): Streamable HTTP (stateful, SSE replies) and the legacy HTTP+SSE app;
#   - **django-mcp-server** 0.5.7 (Django 5.2.19, DRF 3.18.3, Python SDK mcp 1.30.0: it imports `mcp.server.FastMCP`,
#     gone in mcp 2.x) under **gunicorn** 27.0.1 (pyservers/djsite/: settings, URLconf, WSGI app, an MCPToolset):
#     each request is a Django view that runs a fresh SDK `StreamableHTTPSessionManager(stateless=True,
#     json_response=True)` on a buffered copy of the request, the Mcp-Session-Id being a Django session key
#     (sessions in the local-memory cache here); served with a gthread worker (--threads 4) and with gunicorn's
#     default sync worker;
#   - **flask-mcp-server** 0.6.1 (Flask 3.1.3, werkzeug 3.1.9; its own code, no SDK: pyservers/flask_app.py).
#
#   sudo bash samples/gen/ecosystem/pyservers.sh             # every scenario
#   sudo bash samples/gen/ecosystem/pyservers.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/pyservers-<scenario>.pcap, listing samples/gen/wire/ecosystem/pyservers-<scenario>.pcap.txt):
#   hypercorn-py      port 19190: the Python SDK client (mcp 2.3.0, relays/py_client.py, mode="legacy") -> the SDK's
#                     streamable_http_app on /mcp under hypercorn
#   hypercorn-ts      port 19191: the TypeScript SDK client (1.32.2, pyservers/ts_client.mjs, streamable) -> the same
#   hypercorn-sse-ts  port 19192: the TypeScript SDK client (SSEClientTransport) -> the SDK's sse_app (GET /sse,
#                     POST /messages/?session_id=) under hypercorn
#   django-py         port 19193: the Python SDK client (legacy) -> django-mcp-server on /mcp, gunicorn gthread worker
#                     (-w 1 --threads 4)
#   django-ts         port 19194: the TypeScript SDK client (streamable) -> the same
#   django-sync-py    port 19195: the Python SDK client (legacy) -> django-mcp-server under gunicorn's default sync
#                     worker (-w 1), its worker timeout cut from 30 s to 10 s (--timeout 10) so that the worker abort
#                     falls inside the client's 30 s run
#   flask-py          port 19196: the Python SDK client (legacy) -> flask-mcp-server's create_app() on /mcp, Flask's
#                     own server (werkzeug, threaded)
#
# Each session: initialize, tools/list, add(1,2), echo("hello"), slow_count(3) (3 notifications/progress 0.1 s apart
# where the server can send them), add(40,2), 0.1 s apart, close (DELETE when a session id was given). Each client
# run is bounded (timeout 60 here; 30 s inside the clients; 10 s per request). Each server is up before its capture
# starts (its port seen listening in the socket table) and stopped after it. No network beyond 127.0.0.1 (DO_NOT_TRACK,
# no telemetry in these packages; a guard capture on every interface, lib.sh guard_start/guard_stop, checks it).
#
# Needs root (tcpdump), tcpdump, tshark (agentsjs/wire.py, which imports agents/wire.py and replicas/wire.py by
# path), ss (iproute2), python3 (3.11) with venv, node 20 + npm. First use makes pyservers/.venv-hyper,
# .venv-django and .venv-flask from pyservers/requirements-{hyper,django,flask}.txt, the sdks group's venv sdks/.venv
# (the Python SDK 2.3.0 client; also runs wire.py) and pyservers/node_modules (`npm ci`). All git-ignored
# (pyservers/.gitignore). Results and labels: samples/ecosystem/pyservers.md, samples/ecosystem/labels-pyservers.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/pyservers"                                      # servers, clients, pins, venvs, node_modules
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, the offline guard's captures
GROUP=pyservers
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, run, capture_start/stop, guard, run_scenarios, listening
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; runs wire.py
PY_CLIENT=("$SDKPY" "$ECO/relays/py_client.py")                  # URL [--mode legacy|auto]
TS_CLIENT=(node "$W/ts_client.mjs")                     # streamable|sse URL
HYPER=("$W/.venv-hyper/bin/python" "$W/hyper_server.py")
GUNICORN=(env DJANGO_SETTINGS_MODULE=djsite.settings "$W/.venv-django/bin/gunicorn" --chdir "$W" --no-control-socket)
FLASK=("$W/.venv-flask/bin/python" "$W/flask_app.py")

setup() {
    setup_pysdk
    need_venv "$W/.venv-hyper" "$W/requirements-hyper.txt"
    need_venv "$W/.venv-django" "$W/requirements-django.txt"
    need_venv "$W/.venv-flask" "$W/requirements-flask.txt"
    need_npm "$W"
}

# scenario NAME PORT SERVER-CMD... -- CLIENT-CMD...: guard on, the server up on PORT (listening, no probe), capture of
# PORT, one bounded client run, capture stop and listing, everything down, guard off.
scenario() {
    local name=$1 port=$2; shift 2
    local srv=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do srv+=("$1"); shift; done
    shift
    DESCRIBE=("$SDKPY" "$ECO/agentsjs/wire.py" - "$port")
    guard_start "$name"
    free "$port"
    : >"$RUN/$name-server.log"
    bg "$name-server" "${srv[@]}"
    listening "$port"
    sleep 1
    capture_start "$name" "$port"
    run "$name-client" "$@"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -vE '^\s*$' "$RUN/$name-server.log" | cut -c1-150 | tail -6 | sed "s/^/   server: /" || true
}

U() { echo "http://$HOST:$1$2"; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_hypercorn-py() {
    scenario hypercorn-py 19190 "${HYPER[@]}" 19190 --name pyservers-hypercorn -- "${PY_CLIENT[@]}" "$(U 19190 /mcp)"
}
scenario_hypercorn-ts() {
    scenario hypercorn-ts 19191 "${HYPER[@]}" 19191 --name pyservers-hypercorn -- "${TS_CLIENT[@]}" streamable "$(U 19191 /mcp)"
}
scenario_hypercorn-sse-ts() {
    scenario hypercorn-sse-ts 19192 "${HYPER[@]}" 19192 --name pyservers-hypercorn-sse --sse -- \
        "${TS_CLIENT[@]}" sse "$(U 19192 /sse)"
}
scenario_django-py() {
    scenario django-py 19193 "${GUNICORN[@]}" -b "$HOST:19193" -w 1 --threads 4 djsite.wsgi -- \
        "${PY_CLIENT[@]}" "$(U 19193 /mcp)"
}
scenario_django-ts() {
    scenario django-ts 19194 "${GUNICORN[@]}" -b "$HOST:19194" -w 1 --threads 4 djsite.wsgi -- \
        "${TS_CLIENT[@]}" streamable "$(U 19194 /mcp)"
}
scenario_django-sync-py() {
    scenario django-sync-py 19195 "${GUNICORN[@]}" -b "$HOST:19195" -w 1 --timeout 10 djsite.wsgi -- \
        "${PY_CLIENT[@]}" "$(U 19195 /mcp)"
}
scenario_flask-py() {
    scenario flask-py 19196 "${FLASK[@]}" 19196 -- "${PY_CLIENT[@]}" "$(U 19196 /mcp)"
}

ALL=(hypercorn-py hypercorn-ts hypercorn-sse-ts django-py django-ts django-sync-py flask-py)

run_scenarios "tcpdump tshark ss node npm" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers8": MCP servers whose HTTP side is a web framework's own code and streaming
# rather than an MCP SDK's transport, with their README setups, met by the official SDK clients. Versions (pinned in
# servers8/requirements*.txt, servers8/package.json + package-lock.json):
#   jsonv-ts 0.10.1 (its own MCP server, jsonv-ts/mcp, and its Hono middleware `mcp`, sessionsEnabled: true) on Hono
#     4.13.23 + @hono/node-server 2.1.11 (servers8/jsonv_server.mjs)
#   hono-mcp-server-sse-transport 0.0.7 (SSETransport on Hono's streamSSE: GET /sse, POST /messages?sessionId=) with
#     the TS SDK McpServer 1.32.2, on the same Hono (servers8/hono_sse_server.mjs)
#   mcp-django-server 0.4.2 (a Django View answering every POST with JsonResponse; GET answers an info document) on
#     Django 5.2.19, `manage.py runserver --noreload` (servers8/djmcp/)
#   bolt-mcp 0.2.3 on django-bolt 0.13.0 (Django 6.1.3; the HTTP server is django-bolt's Rust/Actix core, the MCP
#     transport the Rust SDK rmcp embedded in it), `manage.py runbolt --processes 1`, MCP defaults (servers8/boltmcp/;
#     Python 3.12: bolt-mcp has no release for 3.11)
# Clients: the Python SDK client mcp 2.3.0 (servers8/py_client.py: Client(URL), default mode "auto"; HTTP+SSE:
# sse_client, mode "legacy") and the TS SDK client 1.32.2 (servers8/ts_client.mjs: StreamableHTTPClientTransport with
# terminateSession, or SSEClientTransport). Each run: tools/list, add, echo, slow(2) with a progress handler, add.
# Captured on loopback (127.0.0.1, ports 20830-20849):
#   jsonv-py 20830   jsonv-ts <- Python client        jsonv-ts 20831   jsonv-ts <- TS client
#   honosse-py 20832 hono SSE <- Python SSE client    honosse-ts 20833 hono SSE <- TS SSE client
#   django-py 20834  mcp-django-server <- Python      django-ts 20835  mcp-django-server <- TS client
#   django-probe 20838  mcp-django-server <- curl: initialize, notifications/initialized, GET, DELETE
#   bolt-py 20836    bolt-mcp <- Python client        bolt-ts 20837    bolt-mcp <- TS client
# (ports 20846-20849 were used for trial runs outside any capture.)
#
#   sudo bash samples/gen/ecosystem/servers8.sh             # every scenario (about 2 minutes after setup)
#   sudo bash samples/gen/ecosystem/servers8.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/servers8-<scenario>.pcap, listings samples/gen/wire/ecosystem/servers8-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every process is stopped after its scenario; a
# guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), curl, python3 (3.11) with venv, Python 3.12 (`python3.12`; a pyenv
# shim is driven with PYENV_VERSION), node 20 + npm. First use makes servers8/.venv (requirements.txt),
# servers8/.venv-bolt (requirements-bolt.txt) and servers8/node_modules (`npm ci`). All git-ignored.
# Results and labels: samples/ecosystem/servers8.md, samples/ecosystem/labels-servers8.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers8"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=servers8
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

PY="$W/.venv/bin/python"
BOLTPY="$W/.venv-bolt/bin/python"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    if [ ! -x "$W/.venv-bolt/bin/python" ]; then
        PYENV_VERSION=3.12.1 python3.12 -m venv "$W/.venv-bolt" && "$W/.venv-bolt/bin/pip" install -q -r "$W/requirements-bolt.txt"
    fi
    need_npm "$W"
}

down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
begin() {
    local name=$1; shift
    DESCRIBE=("$PY" "$ECO/agents/wire.py" - "$@")
    guard_start "$name"
    free "$@"
    rm -f "$RUN/$name"-*.log
}
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
# one NAME PORT URL-PATH CLIENT [FLAG] -- SERVER-CMD...: the server up, capture, one bounded client run, everything down.
one() {
    local name=$1 port=$2 path=$3 client=$4 flag=$5; shift 6
    begin "$name" "$port"
    bg "$name-server" "$@"
    listening "$port"
    capture_start "$name" "$port"
    if [ "$client" = py ]; then
        timeout 60 "$PY" "$W/py_client.py" "http://$HOST:$port$path" $flag >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    else
        timeout 60 node "$W/ts_client.mjs" "http://$HOST:$port$path" $flag >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"
    fi
    sleep 1
    finish "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_jsonv-py() { one jsonv-py 20830 /mcp py "" -- node "$W/jsonv_server.mjs" 20830; }
scenario_jsonv-ts() { one jsonv-ts 20831 /mcp ts "" -- node "$W/jsonv_server.mjs" 20831; }
scenario_honosse-py() { one honosse-py 20832 /sse py --sse -- node "$W/hono_sse_server.mjs" 20832; }
scenario_honosse-ts() { one honosse-ts 20833 /sse ts --sse -- node "$W/hono_sse_server.mjs" 20833; }
scenario_django-py() { one django-py 20834 /mcp/ py "" -- env DJANGO_SETTINGS_MODULE=djmcp.settings "$PY" "$W/manage.py" runserver "$HOST:20834" --noreload; }
scenario_django-ts() { one django-ts 20835 /mcp/ ts "" -- env DJANGO_SETTINGS_MODULE=djmcp.settings "$PY" "$W/manage.py" runserver "$HOST:20835" --noreload; }
# django-probe: no SDK client sends a GET or DELETE to this server (it mints no session id, and answers the
# notification 200 JSON, so the TS client never opens its GET stream); curl sends what a client of a session-less
# Streamable HTTP server may: initialize, notifications/initialized, a standalone GET (Accept: text/event-stream,
# MCP-Protocol-Version), a DELETE.
scenario_django-probe() {
    local name=django-probe port=20838 u="http://$HOST:20838/mcp/" h=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")
    begin "$name" "$port"
    bg "$name-server" env DJANGO_SETTINGS_MODULE=djmcp.settings "$PY" "$W/manage.py" runserver "$HOST:$port" --noreload
    listening "$port"
    capture_start "$name" "$port"
    {
        curl -sS -m 5 -i "${h[@]}" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl-probe","version":"1"}}}' "$u"; echo
        curl -sS -m 5 -i "${h[@]}" -H "MCP-Protocol-Version: 2025-06-18" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$u"; echo
        curl -sS -m 5 -i -H "Accept: text/event-stream" -H "MCP-Protocol-Version: 2025-06-18" "$u"; echo
        curl -sS -m 5 -i -X DELETE -H "MCP-Protocol-Version: 2025-06-18" "$u"; echo
    } >"$RUN/$name-client.log" 2>&1 || echo "   ($name curl exited with $?)"
    sleep 1
    finish "$name"
}
scenario_bolt-py() { one bolt-py 20836 /mcp py "" -- env DJANGO_SETTINGS_MODULE=boltmcp.settings "$BOLTPY" "$W/manage.py" runbolt --host "$HOST" --port 20836 --processes 1; }
scenario_bolt-ts() { one bolt-ts 20837 /mcp ts "" -- env DJANGO_SETTINGS_MODULE=boltmcp.settings "$BOLTPY" "$W/manage.py" runbolt --host "$HOST" --port 20837 --processes 1; }

ALL=(jsonv-py jsonv-ts honosse-py honosse-ts django-py django-ts django-probe bolt-py bolt-ts)

run_scenarios "tcpdump tshark ss node python3 curl" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "frameworks2": MCP server plug-ins of Python web frameworks whose HTTP handling is
# the plug-in's own (not the official SDK's transport), met by the official SDK clients. Versions (pinned in
# frameworks2/requirements.txt): falcon-mcp-server 0.2.0 on Falcon 4.4.0 (ASGI, under uvicorn 0.55.0),
# aiohttp-tiny-mcp 0.5.8 on aiohttp 3.14.5 (web.run_app), flask-mcp-plus 0.1.2 on Flask 3.1.3 (Werkzeug 3.1.9's
# threaded development server), django-stateless-mcp 0.1.11 on Django 5.2.19 (ASGI, under uvicorn 0.55.0; the
# Python SDK's stateless transport run once per request inside a Django view). Clients: the Python SDK client
# mcp 2.3.0 (the sdks group's venv, frameworks2/py_client.py) and the TS SDK client 1.32.2 (proxies2/node_modules,
# frameworks2/ts_client.mjs).
# Captured on loopback (127.0.0.1, ports 19950-19969):
#   falcon-modern   19950  falcon-mcp-server <- Python client, mode 2026-07-28 (stateless, adopted directly)
#   falcon-auto     19951  falcon-mcp-server <- Python client, mode auto (server/discover probe first)
#   falcon-ts       19952  falcon-mcp-server <- TS client (initialize 2025-11-25: refused, the run ends)
#   falcon-probe    19953  falcon-mcp-server <- curl: a GET with Accept text/event-stream, a DELETE (the methods
#                          older clients send; the plug-in only routes POST)
#   aiohttp-py      19954  aiohttp-tiny-mcp <- Python client, mode legacy (initialize, GET stream, DELETE), progress
#   aiohttp-modern  19955  aiohttp-tiny-mcp <- Python client, mode 2026-07-28, progress
#   aiohttp-ts      19956  aiohttp-tiny-mcp <- TS client, progress, terminateSession (DELETE)
#   flask-py        19957  flask-mcp-plus <- Python client, mode legacy
#   flask-ts        19958  flask-mcp-plus <- TS client, terminateSession (DELETE)
#   django-auto     19959  django-stateless-mcp <- Python client, mode auto (server/discover probe first), progress
#   django-ts       19960  django-stateless-mcp <- TS client, progress, terminateSession (DELETE)
# Every client run: tools/list, add, echo, [slow_count(3) with progress], fail (a tool that errors), add.
#
#   sudo bash samples/gen/ecosystem/frameworks2.sh             # every scenario (about 1 minute after setup)
#   sudo bash samples/gen/ecosystem/frameworks2.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/frameworks2-<scenario>.pcap, listings
# samples/gen/wire/ecosystem/frameworks2-<scenario>.pcap.txt (../nonmcp3/wire.py PORT). Each process is bounded
# (timeout) and stopped after its scenario; a guard capture on every interface (lib.sh guard_start/guard_stop)
# checks that nothing left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), curl, python3 with venv, node 20 + npm. First use makes the
# sdks group's venv sdks/.venv (mcp 2.3.0), proxies2/node_modules (`npm ci`: TS SDK 1.32.2) and frameworks2/.venv
# (frameworks2/requirements.txt). All git-ignored. Results and labels: samples/ecosystem/frameworks2.md,
# samples/ecosystem/labels-frameworks2.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/frameworks2"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=frameworks2
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

SDKPY="$ECO/sdks/.venv/bin/python"
FPY="$W/.venv/bin/python"
PY_CLIENT=("$SDKPY" "$W/py_client.py")      # URL MODE [--progress]
TS_CLIENT=(node "$W/ts_client.mjs")         # URL [--progress]

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_venv "$W/.venv" "$W/requirements.txt"
}

U() { echo "http://$HOST:$1/mcp"; }
UD() { echo "http://$HOST:$1/mcp/"; }   # Django's URLconf: the trailing slash

# down: SIGINT to each process group started by bg, a second, then SIGKILL.
down() {
    local p
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -INT -- "-$p" 2>/dev/null || true; done
    sleep 1
    for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -KILL -- "-$p" 2>/dev/null || true; done
}
# one NAME PORT SERVER-SCRIPT -- CLIENT-CMD...: the plug-in's server (frameworks2/SERVER-SCRIPT PORT) up, capture on
# PORT, one client run bounded to 40 s (or probe), everything down, guard off, the logs' tails.
one() {
    local name=$1 port=$2 script=$3 f; shift 4
    DESCRIBE=("$SDKPY" "$ECO/nonmcp3/wire.py" "$port")
    guard_start "$name"
    free "$port"
    rm -f "$RUN/$name"-*.log
    bg "$name-server" "$FPY" "$W/$script" "$port"
    listening "$port"
    sleep 1
    capture_start "$name" "$port"
    if declare -F "$1" >/dev/null; then "$@" >"$RUN/$name-client.log" 2>&1   # probe: each curl bounded by -m 5
    else timeout 40 "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"; fi
    capture_stop "$name"
    down
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
# probe URL: what an older client sends besides POST, by hand: a GET asking for an SSE stream, then a DELETE.
probe() {
    curl -sS -m 5 -o /dev/null -w 'GET %{http_code}\n' -H 'Accept: text/event-stream' "$1" || true
    sleep 0.2
    curl -sS -m 5 -o /dev/null -w 'DELETE %{http_code}\n' -X DELETE -H 'Mcp-Session-Id: none-was-minted' "$1" || true
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_falcon-modern()  { one falcon-modern 19950 falcon_server.py -- "${PY_CLIENT[@]}" "$(U 19950)" 2026-07-28; }
scenario_falcon-auto()    { one falcon-auto 19951 falcon_server.py -- "${PY_CLIENT[@]}" "$(U 19951)" auto; }
scenario_falcon-ts()      { one falcon-ts 19952 falcon_server.py -- "${TS_CLIENT[@]}" "$(U 19952)"; }
scenario_falcon-probe()   { one falcon-probe 19953 falcon_server.py -- probe "$(U 19953)"; }
scenario_aiohttp-py()     { one aiohttp-py 19954 aiohttp_server.py -- "${PY_CLIENT[@]}" "$(U 19954)" legacy --progress; }
scenario_aiohttp-modern() { one aiohttp-modern 19955 aiohttp_server.py -- "${PY_CLIENT[@]}" "$(U 19955)" 2026-07-28 --progress; }
scenario_aiohttp-ts()     { one aiohttp-ts 19956 aiohttp_server.py -- "${TS_CLIENT[@]}" "$(U 19956)" --progress; }
scenario_flask-py()       { one flask-py 19957 flask_server.py -- "${PY_CLIENT[@]}" "$(U 19957)" legacy; }
scenario_flask-ts()       { one flask-ts 19958 flask_server.py -- "${TS_CLIENT[@]}" "$(U 19958)"; }
scenario_django-auto()    { one django-auto 19959 django_server.py -- "${PY_CLIENT[@]}" "$(UD 19959)" auto --progress; }
scenario_django-ts()      { one django-ts 19960 django_server.py -- "${TS_CLIENT[@]}" "$(UD 19960)" --progress; }

ALL=(falcon-modern falcon-auto falcon-ts falcon-probe aiohttp-py aiohttp-modern aiohttp-ts flask-py flask-ts django-auto
     django-ts)
run_scenarios "tcpdump tshark ss curl node npm python3" -- "$@"

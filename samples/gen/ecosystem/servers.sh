#!/usr/bin/env bash
# mcptap ecosystem corpus, group "servers": real MCP traffic of widely used, published MCP servers (npm, PyPI), each
# run with its own defaults over its HTTP transports, against the official SDK clients (TS SDK 1.32.2, Python SDK
# `mcp` 2.3.0) with theirs, fully offline (local pages, a local file, a local git repository; a guard capture of all
# other traffic checks it), captured on loopback (127.0.0.1, ports 19030-19059 only).
#
#   sudo bash samples/gen/ecosystem/servers.sh             # every scenario
#   sudo bash samples/gen/ecosystem/servers.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/servers-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   everything-streamable     port 19030: @modelcontextprotocol/server-everything 2026.8.31 `streamableHttp` (express,
#                             TS SDK 1.32.2 transport, stateful, its own in-memory event store: SSE ids) <- the TS SDK
#                             1.32.2 client (servers/ts-client.mjs everything: tools, echo, get-sum, the long-running
#                             operation with progress, resources/subscribe, the two toggles that start its 5 s timers
#                             of resource updates and log messages, 12 s idle, close())
#   everything-streamable-py  port 19031: the same server <- the Python SDK 2.3.0 client `Client(url)` (servers/py_client.py
#                             everything: the same script; leaving the client sends DELETE)
#   everything-sse            port 19032: the same package, `sse` (HTTP+SSE: GET /sse, POST /message?sessionId=) <- the
#                             TS SDK client's SSEClientTransport, the same script
#   playwright                port 19035: @playwright/mcp 0.0.86 --port (its HTTP server: Streamable HTTP on any path
#                             but /sse, stateful, ping heartbeat) headless Debian chromium <- TS SDK client on /mcp:
#                             tools, browser_navigate to a local page (python http.server on 19034, not captured),
#                             browser_snapshot, 4 s idle, close()
#   playwright-py             port 19036: the same server <- the Python SDK client, the same script
#   playwright-sse            port 19037: the same server <- TS SDK SSEClientTransport on /sse (its legacy transport)
#   markitdown                port 19040: markitdown-mcp 0.0.1a8 --http (Python SDK 2.3.0 MCPServer: /mcp stateless with
#                             JSON replies, and the legacy /sse + /messages/ apps) <- TS SDK client on /mcp: tools,
#                             convert_to_markdown of the local page (http.server on 19034, not captured) and of a
#                             file:// URI, close()
#   markitdown-py             port 19041: the same server <- the Python SDK client (2026-07-28 stateless: this server
#                             answers server/discover)
#   markitdown-sse            port 19042: the same server <- TS SDK SSEClientTransport on /sse
#   git                       port 19045: @cyanheads/git-mcp-server 2.15.3, MCP_TRANSPORT_TYPE=http (its own bundled
#                             transport on Hono, session mode auto) <- TS SDK client: tools, git_status and git_log of a
#                             local repository (FIX/repo, one commit with fixed dates), close()
#   git-py                    port 19046: the same server <- the Python SDK client, the same script
#
# Each client run is bounded (timeout 60 here, 40 s inside); the longest scenario (everything-*) is about 15 s, the
# whole run about 100 s. The fixtures (setup) live at FIX, a fixed path outside the checkout, because tool arguments
# and results carry their path: the page (served on 19034 and read as a file:// URI) and a one-commit git repository.
# Chromium looks up Google hosts despite Playwright's switches: servers/playwright-offline.json (--config) maps every
# host name to NOTFOUND inside the browser (see PLAYWRIGHT below).
#
# Needs root (tcpdump), tcpdump, tshark (agents/wire.py, the agents group's listing), python3 with venv,
# node 20 + npm, git, and Debian's chromium (`apt-get install -y chromium`; @playwright/mcp runs it through
# --executable-path, no browser is downloaded). First use makes the sdks group's venv sdks/.venv (the Python SDK 2.3.0
# client, also runs wire.py and the page server), servers/.venv-markitdown from servers/requirements-markitdown.txt,
# and servers/node_modules (`npm ci`: the three npm servers and the TS SDK client). All git-ignored
# (servers/.gitignore). Results and labels: samples/ecosystem/servers.md, samples/ecosystem/labels-servers.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/servers"                                        # harness code, pins, node_modules, venvs
CAP="$OUT/ecosystem"                                    # samples/ecosystem
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"                                            # scratch: logs, fixtures, the servers' working directory
GROUP=servers
DESCRIBE=()                                             # set per scenario: wire.py needs the port
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, server, run, need_npm, free, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

SDKPY="$ECO/sdks/.venv/bin/python"                      # mcp 2.3.0: the Python SDK client; also runs wire.py
NM="$W/node_modules"
PAGE_PORT=19034                                         # the local page server (not in any capture)
PAGE="http://$HOST:$PAGE_PORT/index.html"
FIX=/tmp/mcptap-servers                                 # fixtures (setup): www/index.html, repo/

setup() {
    setup_pysdk
    need_venv "$W/.venv-markitdown" "$W/requirements-markitdown.txt" markitdown-mcp
    need_npm "$W"
    [ -x /usr/bin/chromium ] || { echo "missing /usr/bin/chromium: apt-get install -y chromium" >&2; exit 1; }
    # Fixtures, at a fixed path outside the checkout (tool arguments and results carry it, so the captures and
    # listings are the same on every machine): the page the browser and markitdown fetch (also read as a file://
    # URI), a git repository with one commit of fixed author, committer and dates (the same hashes every run).
    mkdir -p "$FIX/www"
    cat >"$FIX/www/index.html" <<'HTML'
<!doctype html>
<html><head><title>mcptap servers fixture</title></head>
<body><h1>Loopback page</h1><p>Served by python http.server on 127.0.0.1 for the servers group.</p>
<ul><li><a href="/index.html">this page</a></li><li>an item</li></ul></body></html>
HTML
    if [ ! -d "$FIX/repo/.git" ]; then
        mkdir -p "$FIX/repo"
        printf 'mcptap servers fixture\n' >"$FIX/repo/README"
        (cd "$FIX/repo" && git init -q -b main . && git add README &&
            GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
            git -c user.name=mcptap -c user.email=mcptap@example.invalid -c commit.gpgsign=false commit -qm "fixture")
    fi
}

TS_CLIENT=(node "$W/ts-client.mjs")
PY_CLIENT=("$SDKPY" "$W/py_client.py")
EVERYTHING=(node "$NM/@modelcontextprotocol/server-everything/dist/index.js")
# @playwright/mcp (PLAYWRIGHT... --port PORT): --port turns on its HTTP server; --host 127.0.0.1 (its default
# "localhost" may bind ::1 only); headless Debian chromium (it downloads no browser: --executable-path); --no-sandbox
# because we run as root. Its own chromium switches include --disable-background-networking and
# --disable-component-update, yet Debian's chromium still looks up update.googleapis.com and accounts.google.com
# (DNS only, seen by the guard); servers/playwright-offline.json (--config) adds the chromium switch
# --host-resolver-rules="MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", so every name fails inside the browser, no query
# leaves it, and 127.0.0.1 pages still load. It runs in RUN (its output directory .playwright-mcp lands there).
PLAYWRIGHT=(env -C "$RUN" node "$NM/@playwright/mcp/cli.js" --host "$HOST" --headless --browser chromium
            --executable-path /usr/bin/chromium --no-sandbox --config "$W/playwright-offline.json")
MARKITDOWN="$W/.venv-markitdown/bin/markitdown-mcp"
# @cyanheads/git-mcp-server (GIT_SERVER with MCP_HTTP_PORT=PORT before it): MCP_TRANSPORT_TYPE=http (default host
# 127.0.0.1, path /mcp, session mode auto, no auth, in-memory storage, OpenTelemetry off); GIT_SIGN_COMMITS off
# (nothing here commits). It runs in RUN.
GIT_SERVER=(MCP_TRANSPORT_TYPE=http GIT_SIGN_COMMITS=false node "$NM/@cyanheads/git-mcp-server/dist/index.js")

# servers NAME PORT [--page] SERVER-CMD... -- CLIENT-CMD...: lib.sh capture_run (server up on PORT, capture of that
# port, one bounded client run, stop, listing by agents/wire.py), with --page the local page server on PAGE_PORT
# first (outside the capture), and a guard capture for the whole scenario of every packet that is not
# 127.0.0.1 <-> 127.0.0.1 (or ::1 <-> ::1): DNS, a browser's background requests, telemetry would show there. The
# guard's packets are listed as a warning, not a failure: another program's traffic on this machine lands there too.
servers() {
    local name=$1 port=$2
    shift 2
    free "$port" "$PAGE_PORT"                          # the previous scenario's processes are signalled, not waited for
    if [ "$1" = "--page" ]; then
        shift
        server "$name-page" "$PAGE_PORT" "$SDKPY" -m http.server "$PAGE_PORT" --bind "$HOST" --directory "$FIX/www"
    fi
    DESCRIBE=("$SDKPY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    capture_run "$name" "$port" "$@"
    sleep 1
    guard_stop "$name"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_everything-streamable() {
    servers everything-streamable 19030 env PORT=19030 "${EVERYTHING[@]}" streamableHttp -- \
        "${TS_CLIENT[@]}" everything streamable "http://$HOST:19030/mcp"
}
scenario_everything-streamable-py() {
    servers everything-streamable-py 19031 env PORT=19031 "${EVERYTHING[@]}" streamableHttp -- \
        "${PY_CLIENT[@]}" everything "http://$HOST:19031/mcp"
}
scenario_everything-sse() {
    servers everything-sse 19032 env PORT=19032 "${EVERYTHING[@]}" sse -- \
        "${TS_CLIENT[@]}" everything sse "http://$HOST:19032/sse"
}
scenario_playwright() {
    servers playwright 19035 --page "${PLAYWRIGHT[@]}" --port 19035 -- "${TS_CLIENT[@]}" playwright streamable "http://$HOST:19035/mcp" "$PAGE"
}
scenario_playwright-py() {
    servers playwright-py 19036 --page "${PLAYWRIGHT[@]}" --port 19036 -- "${PY_CLIENT[@]}" playwright "http://$HOST:19036/mcp" "$PAGE"
}
scenario_playwright-sse() {
    servers playwright-sse 19037 --page "${PLAYWRIGHT[@]}" --port 19037 -- "${TS_CLIENT[@]}" playwright sse "http://$HOST:19037/sse" "$PAGE"
}
scenario_markitdown() {
    servers markitdown 19040 --page "$MARKITDOWN" --http --port 19040 -- \
        "${TS_CLIENT[@]}" markitdown streamable "http://$HOST:19040/mcp" "$PAGE" "file://$FIX/www/index.html"
}
scenario_markitdown-py() {
    servers markitdown-py 19041 --page "$MARKITDOWN" --http --port 19041 -- \
        "${PY_CLIENT[@]}" markitdown "http://$HOST:19041/mcp" "$PAGE" "file://$FIX/www/index.html"
}
scenario_markitdown-sse() {
    servers markitdown-sse 19042 --page "$MARKITDOWN" --http --port 19042 -- \
        "${TS_CLIENT[@]}" markitdown sse "http://$HOST:19042/sse" "$PAGE" "file://$FIX/www/index.html"
}
scenario_git() {
    servers git 19045 env -C "$RUN" MCP_HTTP_PORT=19045 "${GIT_SERVER[@]}" -- \
        "${TS_CLIENT[@]}" git streamable "http://$HOST:19045/mcp" "$FIX/repo"
}
scenario_git-py() {
    servers git-py 19046 env -C "$RUN" MCP_HTTP_PORT=19046 "${GIT_SERVER[@]}" -- \
        "${PY_CLIENT[@]}" git "http://$HOST:19046/mcp" "$FIX/repo"
}

ALL=(everything-streamable everything-streamable-py everything-sse playwright playwright-py playwright-sse
     markitdown markitdown-py markitdown-sse git git-py)

run_scenarios "tcpdump tshark node npm git" -- "$@"

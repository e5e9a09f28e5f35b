#!/usr/bin/env bash
# mcptap ecosystem corpus, group "cli": MCP servers debugged BY HAND with generic HTTP tools, following published
# how-tos (and their mistakes): curl 7.88.1 (Debian 12), HTTPie 3.2.4 (PyPI `httpie`), xh (crates.io `xh`, cargo
# install --locked). Servers: the official Python SDK (mcp 2.3.0, cli/server.py: SSE replies by default, --json for
# json_response=True, --legacy for its HTTP+SSE app) and the TypeScript SDK 1.32.2 on express 5.3.0 (cli/ts-server.mjs,
# the SDK README's session routing, ../ts_common.mjs). Captured on loopback (127.0.0.1, ports 20770-20781 of the
# group's 20770-20789):
#   glama-py        Python SDK server (SSE) :20770: the how-to flow (initialize with `curl -s -D -`,
#                   notifications/initialized, tools/list, a 2 KiB tools/call echo, slow_count with `curl -N`, the
#                   same buffered, a 1.1 MiB tools/call argument from a file (curl adds `Expect: 100-continue`), DELETE)
#   glama-ts        the same against the TS SDK server :20771
#   mistakes-py     Python SDK server, json_response=True :20772: no Accept (curl sends */*), protocolVersion "0.1.0", no
#                   notifications/initialized, no session id (400), Content-Type text/plain, a BOM, a trailing
#                   newline, no MCP-Protocol-Version, GET without Accept, GET with Accept (cut by --max-time), DELETE twice
#   mistakes-ts     the same against the TS SDK server :20773
#   restart-py      Python SDK server (SSE) :20774: a session, the server restarted, the old session id twice
#                   (up-arrow), a DELETE of it, a new initialize
#   restart-ts      the same against the TS SDK server :20775
#   curl-next       Python SDK server (JSON) :20776: `curl --http1.0` initialize; `curl -K` config of three requests
#                   joined by `next` (one connection), `--next` on the command line
#   http10          `curl --http1.0` through the how-to flow against the Python SDK server (SSE) :20780 and the TS SDK
#                   server :20781 (one capture)
#   httpie          HTTPie against the Python SDK server (SSE) :20777: its default Accept, then the how-to headers,
#                   `--stream`, DELETE
#   xh              xh against the TS SDK server :20778: the same
#   legacy-py       Python SDK HTTP+SSE server :20779: POST /sse by mistake, `curl -N /sse` in the background and POSTs
#                   to the endpoint by hand; a second `timeout 2 curl -N /sse` whose session id is used after the
#                   stream closed
#
#   sudo bash samples/gen/ecosystem/cli.sh             # every scenario
#   sudo bash samples/gen/ecosystem/cli.sh SCENARIO..  # some of them
#
# Every command is bounded (curl --max-time, http --timeout, xh --timeout, all under `timeout`). First use makes
# cli/.venv (requirements.txt), cli/node_modules (npm ci) and cli/target/bin/xh (cargo install --locked xh@XHVER).
# Needs root (tcpdump), tcpdump, tshark, ss, curl, node 20 + npm, cargo.
# Results and labels: samples/ecosystem/cli.md, samples/ecosystem/labels-cli.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/cli"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=cli
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"
# capture_start as lib.sh's, with a 32 MiB capture buffer (-B): the 1.1 MiB upload arrives on lo in about a
# millisecond, and with the default buffer tcpdump dropped 12 packets of it ("dropped by kernel", a gap of 236 kB).
capture_start() {
    local name=$1; shift
    local filter="" p
    for p in "$@"; do filter="${filter:+$filter or }tcp port $p"; done
    rm -f "$CAP/$GROUP-$name.pcap"
    tcpdump -i lo -s 0 -B 32768 -U -w "$CAP/$GROUP-$name.pcap" "$filter" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
}
export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1
# HTTPie checks packages.httpie.io for updates unless its config says disable_update_warnings (the guard saw it).
export HTTPIE_CONFIG_DIR="$ECO/cli/httpie"
XHVER=0.26.3
PYV="$W/.venv/bin/python"
HTTP="$W/.venv/bin/http"
XH="$W/target/bin/xh"

setup() {
    need_venv "$W/.venv" "$W/requirements.txt" http
    need_npm "$W"
}
begin() {
    local name=$1; shift
    DESCRIBE=("$PYV" "$ECO/agents/wire.py" - "$@")
    guard_start "$name"
    free "$@"
    rm -f "$RUN/$name"-*.log "$RUN/$name".*
    LOG="$RUN/$name-client.log"
}
finish() {
    local name=$1
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
}
pysrv() { bg "$1-server-$2" "$PYV" "$W/server.py" "$2" "${@:3}"; listening "$2"; }
# NODE_ENV=production as deployed express apps run: without it express's error pages carry a stack trace (the 413).
tssrv() { bg "$1-server-$2" env NODE_ENV=production node "$W/ts-server.mjs" "$2"; listening "$2"; }

# What the how-tos type. Every command is logged (its output too) and bounded.
J='Content-Type: application/json'
A='Accept: application/json, text/event-stream'
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl-client","version":"1.0.0"}}}'
INITD='{"jsonrpc":"2.0","method":"notifications/initialized"}'
LIST='{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
say() { echo "\$ $*" >>"$LOG"; }
c() { say curl "$@"; timeout 20 curl -sS --max-time 10 "$@" >>"$LOG" 2>&1 || echo "(curl exited $?)" >>"$LOG"; echo >>"$LOG"; sleep 0.3; }
# init URL [extra curl args]: initialize, headers dumped (-D), the session id kept in SID (the how-to's grep).
init() {
    local url=$1; shift
    say curl -s -D headers -X POST "$url" ... initialize
    timeout 20 curl -sS --max-time 10 -D "$RUN/h" -X POST "$url" -H "$J" "$@" -d "${INITBODY:-$INIT}" >>"$LOG" 2>&1 || true
    cat "$RUN/h" >>"$LOG"; echo >>"$LOG"
    SID=$(grep -i '^mcp-session-id:' "$RUN/h" | cut -d' ' -f2 | tr -d '\r' || true)
    sleep 0.3
}
# A 1.1 MiB argument (a pasted document) as a file, sent with -d @FILE: curl 7.88 adds `Expect: 100-continue` only
# above 1 MiB (the 2 KiB echo goes without).
big_arg() { printf '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"note":"%s"}}}' "$(head -c 1153434 /dev/zero | tr '\0' 'y')" >"$1"; }
big_echo() { printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"%s"}}}' "$(head -c 2048 /dev/zero | tr '\0' 'x')"; }

glama() {
    local name=$1 port=$2 kind=$3 u="http://$HOST:$2/mcp"
    begin "$name" "$port"
    if [ "$kind" = py ]; then pysrv "$name" "$port"; else tssrv "$name" "$port"; fi
    capture_start "$name" "$port"
    init "$u" -H "$A"
    local S=(-H "$J" -H "$A" -H "Mcp-Session-Id: $SID" -H "MCP-Protocol-Version: 2025-11-25")
    c -X POST "$u" "${S[@]}" -d "$INITD"
    c -s -X POST "$u" "${S[@]}" -d "$LIST"
    c -s -X POST "$u" "${S[@]}" -d "$(big_echo)"
    c -N -X POST "$u" "${S[@]}" -d '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow_count","arguments":{"n":3},"_meta":{"progressToken":"p4"}}}'
    c -X POST "$u" "${S[@]}" -d '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow_count","arguments":{"n":3},"_meta":{"progressToken":"p5"}}}'
    big_arg "$RUN/$name.big.json"
    c -s -X POST "$u" "${S[@]}" -d "@$RUN/$name.big.json"
    c -X DELETE "$u" -H "Mcp-Session-Id: $SID" -H "MCP-Protocol-Version: 2025-11-25"
    finish "$name"
}
scenario_glama-py() { glama glama-py 20770 py; }
scenario_glama-ts() { glama glama-ts 20771 ts; }

mistakes() {
    local name=$1 port=$2 kind=$3 u="http://$HOST:$2/mcp"
    begin "$name" "$port"
    if [ "$kind" = py ]; then pysrv "$name" "$port" --json; else tssrv "$name" "$port"; fi
    capture_start "$name" "$port"
    c -X POST "$u" -H "$J" -d "$INIT"                                   # no Accept at all
    INITBODY='{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"0.1.0","capabilities":{},"clientInfo":{"name":"curl-test","version":"1.0.0"}},"id":1}' \
        init "$u" -H "$A"                                               # a made-up protocolVersion; no initialized
    c -X POST "$u" -H "$J" -H "$A" -d "$LIST"                           # no session id
    c -X POST "$u" -H 'Content-Type: text/plain' -H "$A" -H "Mcp-Session-Id: $SID" -d "$LIST"
    printf '\xef\xbb\xbf{"jsonrpc":"2.0","id":3,"method":"tools/list"}' >"$RUN/$name.bom.json"
    c -X POST "$u" -H "$J" -H "$A" -H "Mcp-Session-Id: $SID" --data-binary "@$RUN/$name.bom.json"
    printf '{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n' >"$RUN/$name.nl.json"
    c -X POST "$u" -H "$J" -H "$A" -H "Mcp-Session-Id: $SID" --data-binary "@$RUN/$name.nl.json"
    c -X POST "$u" -H "$J" -H "$A" -H "Mcp-Session-Id: $SID" -d '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
    c "$u" -H "Mcp-Session-Id: $SID"                                    # GET, curl's Accept: */*
    c -N --max-time 3 "$u" -H 'Accept: text/event-stream' -H "Mcp-Session-Id: $SID"
    c -X DELETE "$u" -H "Mcp-Session-Id: $SID"
    c -X DELETE "$u" -H "Mcp-Session-Id: $SID"
    finish "$name"
}
scenario_mistakes-py() { mistakes mistakes-py 20772 py; }
scenario_mistakes-ts() { mistakes mistakes-ts 20773 ts; }

restart() {
    local name=$1 port=$2 kind=$3 u="http://$HOST:$2/mcp" old
    begin "$name" "$port"
    if [ "$kind" = py ]; then pysrv "$name" "$port"; else tssrv "$name" "$port"; fi
    capture_start "$name" "$port"
    init "$u" -H "$A"
    local S=(-H "$J" -H "$A" -H "MCP-Protocol-Version: 2025-11-25")
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $SID" -d "$INITD"
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $SID" -d "$LIST"
    stop "${PIDS[0]}" INT; PIDS=(); free "$port"
    if [ "$kind" = py ]; then pysrv "$name" "$port"; else tssrv "$name" "$port"; fi
    old=$SID
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $old" -d '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $old" -d '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'
    c -X DELETE "$u" -H "Mcp-Session-Id: $old"
    init "$u" -H "$A"
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $SID" -d "$INITD"
    c -X POST "$u" "${S[@]}" -H "Mcp-Session-Id: $SID" -d "$LIST"
    finish "$name"
}
scenario_restart-py() { restart restart-py 20774 py; }
scenario_restart-ts() { restart restart-ts 20775 ts; }

scenario_curl-next() {
    local name=curl-next port=20776 u="http://$HOST:20776/mcp"
    begin "$name" "$port"
    pysrv "$name" "$port" --json
    capture_start "$name" "$port"
    c --http1.0 -X POST "$u" -H "$J" -H "$A" -d "$INIT"
    init "$u" -H "$A"
    q() { printf '"%s"' "$(printf %s "$1" | sed 's/"/\\"/g')"; }   # a curl config string: "..." with \" inside
    cat >"$RUN/$name.cfg" <<CFG
url = "$u"
header = "$J"
header = "$A"
header = "Mcp-Session-Id: $SID"
header = "MCP-Protocol-Version: 2025-11-25"
data = $(q "$INITD")
next
url = "$u"
header = "$J"
header = "$A"
header = "Mcp-Session-Id: $SID"
header = "MCP-Protocol-Version: 2025-11-25"
data = $(q "$LIST")
next
url = "$u"
header = "$J"
header = "$A"
header = "Mcp-Session-Id: $SID"
header = "MCP-Protocol-Version: 2025-11-25"
data = $(q '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}')
CFG
    c -K "$RUN/$name.cfg"
    local S=(-H "$J" -H "$A" -H "Mcp-Session-Id: $SID" -H "MCP-Protocol-Version: 2025-11-25")
    c "$u" "${S[@]}" -d '{"jsonrpc":"2.0","id":4,"method":"ping"}' --next "$u" "${S[@]}" -d '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}' --next -X DELETE "$u" -H "Mcp-Session-Id: $SID"
    finish "$name"
}

# curl --http1.0 against SSE replies (no chunked encoding in HTTP/1.0): the Python SDK server :20780 and the TS SDK
# server :20781, one capture. The how-to flow, every request HTTP/1.0.
scenario_http10() {
    local name=http10 port u
    begin "$name" 20780 20781
    pysrv "$name" 20780
    tssrv "$name" 20781
    capture_start "$name" 20780 20781
    for port in 20780 20781; do
        u="http://$HOST:$port/mcp"
        init "$u" --http1.0 -H "$A"
        local S=(--http1.0 -H "$J" -H "$A" -H "Mcp-Session-Id: $SID" -H "MCP-Protocol-Version: 2025-11-25")
        c -X POST "$u" "${S[@]}" -d "$INITD"
        c -X POST "$u" "${S[@]}" -d "$LIST"
        c -N -X POST "$u" "${S[@]}" -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow_count","arguments":{"n":3},"_meta":{"progressToken":"p3"}}}'
        c --http1.0 -X DELETE "$u" -H "Mcp-Session-Id: $SID"
    done
    finish "$name"
}

# h TOOL ARGS...: HTTPie or xh, bounded, logged; --ignore-stdin as both tools' docs say for scripts (stdin is no tty).
h() { local t=$1; shift; say "$(basename "$t")" --ignore-stdin "$@"; timeout 20 "$t" --ignore-stdin --timeout 10 "$@" >>"$LOG" 2>&1 || echo "($(basename "$t") exited $?)" >>"$LOG"; echo >>"$LOG"; sleep 0.3; }
hsid() { SID=$(grep -i '^mcp-session-id:' "$LOG" | tail -1 | cut -d' ' -f2 | tr -d '\r' || true); }
humane() {
    local name=$1 port=$2 kind=$3 tool=$4 u="http://$HOST:$2/mcp"
    begin "$name" "$port"
    if [ "$kind" = py ]; then pysrv "$name" "$port"; else tssrv "$name" "$port"; fi
    capture_start "$name" "$port"
    local P='params:={"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cli","version":"1.0.0"}}'
    h "$tool" -p hb POST "$u" jsonrpc=2.0 id:=1 method=initialize "$P"                       # the tool's default Accept
    h "$tool" -p hb POST "$u" "$A" jsonrpc=2.0 id:=1 method=initialize "$P"
    hsid
    local S=("$A" "Mcp-Session-Id:$SID" "MCP-Protocol-Version:2025-11-25")
    h "$tool" -p hb POST "$u" "${S[@]}" jsonrpc=2.0 method=notifications/initialized
    h "$tool" -p hb POST "$u" "${S[@]}" jsonrpc=2.0 id:=2 method=tools/list
    h "$tool" -p hb --stream POST "$u" "${S[@]}" jsonrpc=2.0 id:=3 method=tools/call 'params:={"name":"slow_count","arguments":{"n":3},"_meta":{"progressToken":"p3"}}'
    h "$tool" -p hb GET "$u" "Mcp-Session-Id:$SID"                                        # GET with the tool's Accept
    h "$tool" -p hb DELETE "$u" "Mcp-Session-Id:$SID"
    finish "$name"
}
scenario_httpie() { humane httpie 20777 py "$HTTP"; }
scenario_xh() {
    [ -x "$XH" ] || cargo install --locked --root "$W/target" xh --version "$XHVER"
    humane xh 20778 ts "$XH"
}

scenario_legacy-py() {
    local name=legacy-py port=20779 b="http://$HOST:20779" ep ep2
    begin "$name" "$port"
    pysrv "$name" "$port" --legacy
    capture_start "$name" "$port"
    c -X POST "$b/sse" -H "$J" -d "$INIT"                                  # POST to the SSE URL by mistake
    say curl -N "$b/sse" '&'
    timeout 20 curl -sS -N --max-time 12 "$b/sse" >"$RUN/$name.sse" 2>&1 &
    local sse=$!
    sleep 1
    ep=$(grep -m1 '^data: ' "$RUN/$name.sse" | cut -d' ' -f2 | tr -d '\r')
    echo "endpoint: $ep" >>"$LOG"
    c -X POST "$b$ep" -H "$J" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"curl-client","version":"1.0.0"}}}'
    c -X POST "$b$ep" -H "$J" -d "$INITD"
    c -X POST "$b$ep" -H "$J" -d "$LIST"
    c -X POST "$b$ep" -H "$J" -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'
    say 'timeout 2 curl -N' "$b/sse"
    ep2=$( (timeout 2 curl -sS -N "$b/sse" 2>/dev/null || true) | grep -m1 '^data: ' | cut -d' ' -f2 | tr -d '\r')
    echo "endpoint: $ep2" >>"$LOG"
    c -X POST "$b$ep2" -H "$J" -d "$INIT"
    c -X POST "$b$ep2" -H "$J" -d "$LIST"
    wait "$sse" || true
    cat "$RUN/$name.sse" >>"$LOG"
    finish "$name"
}

ALL=(glama-py glama-ts mistakes-py mistakes-ts restart-py restart-ts curl-next http10 httpie xh legacy-py)
run_scenarios "tcpdump tshark ss curl node npm cargo" -- "$@"

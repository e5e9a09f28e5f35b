#!/usr/bin/env bash
# Regenerate the mcptap INCIDENT captures (samples/inc-*.pcap, samples/ok-*.pcap) from real MCP SDK traffic
# on 127.0.0.1. Companion of capture_all.sh (same setup, same capture method); see INCIDENT-SAMPLES.md.
#
#   sudo bash samples/gen/capture_incidents.sh                    # all incident captures (about 5 minutes)
#   sudo bash samples/gen/capture_incidents.sh inc-stream-lost    # only the named capture(s) (file name, no .pcap)
#
# Needs root (tcpdump on lo), python3 (>= 3.11), node + npm, tcpdump, tshark/editcap (tshark package).
# Every client run is bounded (fixed calls, an internal guard, `timeout`); one port per scenario (18200-18299).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOST=127.0.0.1

# ---------------------------------------------------------------- setup (as capture_all.sh)
if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
if [ ! -d "$TS/node_modules/@modelcontextprotocol/sdk" ]; then
    (cd "$TS" && npm ci --silent)
fi
for tool in tcpdump tshark editcap; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y tcpdump tshark)" >&2; exit 1; }
done

# ---------------------------------------------------------------- helpers
SERVER_PID=""
CAP_PID=""
cleanup() {
    [ -n "$CAP_PID" ] && kill -INT "$CAP_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null || true
}
trap cleanup EXIT

# capture PATH PORT TIMEOUT SERVER-CMD -- CLIENT-CMD
#   tcpdump -i lo -s 0 -U (LINKTYPE_ETHERNET, microsecond pcap), filter "tcp port PORT".
#   The server is started and waited for first (no connection-refused noise); the client runs under
#   `timeout TIMEOUT`; 1 s after it exits the capture is stopped with SIGINT, then the server with SIGTERM.
capture() {
    local path=$1 port=$2 tmo=$3; shift 3
    local server=() client=()
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    local caplog
    caplog="$(mktemp)"
    echo "== $(basename "$path") (port $port)"

    "${server[@]}" >"$caplog.server" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"

    rm -f "$path"
    tcpdump -i lo -s 0 -U -Z root -w "$path" "tcp port $port" 2>"$caplog" &
    CAP_PID=$!
    wait_capturing "$caplog"

    local rc=0 t0=$SECONDS
    timeout "$tmo" "${client[@]}" >"$caplog.client" 2>&1 || rc=$?
    grep -v '^\s*$' "$caplog.client" | grep -vE '^\s+(at |\|)|Traceback|File "' | cut -c1-160 | sed 's/^/   client: /' || true
    echo "   client took $((SECONDS - t0)) s"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$(basename "$path")"); }
    sleep 1

    kill -INT "$CAP_PID"; wait "$CAP_PID" || true; CAP_PID=""
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
    grep -E 'packets captured|dropped by kernel' "$caplog" | sed 's/^/   /' || true
    chmod 644 "$path"
    rm -f "$caplog" "$caplog.server" "$caplog.client"
}

# check FILE EXPECTED: the kind of each POST response in order (py/describe.py --posts; EXPECTED "-" skips
# this), then wire/FILE.txt = describe.py's exchange listing + py/timeline.py's times, extra headers and
# per-segment SSE view (timeline alone where describe.py cannot parse the capture, i.e. inc-capture-gaps)
check() {
    check_posts "$1" "$2"
    mkdir -p "$GEN/wire"
    {
        (cd "$OUT" && "$PY" "$GEN/py/describe.py" "$1" 2>/dev/null) || true
        (cd "$OUT" && "$PY" "$GEN/py/timeline.py" "$1")
    } >"$GEN/wire/$1.txt"
}
FAILED=()

url() { echo "http://$HOST:$1${2:-/mcp}"; }
pys() { echo "$PY" "$GEN/py/incident_sample.py" server --port "$@"; }                   # pys PORT [options]
pyc() { local p=$1 s=$2; shift 2; echo "$PY" "$GEN/py/incident_sample.py" client --url "$(url "$p")" --scenario "$s" "$@"; }
tsc() { echo node "$TS/incident-client.mjs" "$(url "$1")" "${@:2}"; }                    # tsc PORT [--pause S]
cap() { local name=$1 port=$2 tmo=$3; shift 3; capture "$OUT/$name.pcap" "$port" "$tmo" "$@"; }

# ---------------------------------------------------------------- scenarios
# Per scenario: the capture, then the expected kind of every POST reply (json, sse, sse-ids, or the status).
run_scenario() {
    local n=$1
    case "$n" in
    # 1. POST SSE reply without ids cut (server FIN) before its response / 2025-11-25 polling done right
    inc-stream-lost)       cap "$n" 18200 60 $(pys 18200 --gateway cut-stream:work) -- $(pyc 18200 stream-lost)
                           check "$n.pcap" "sse 202 sse sse sse sse" ;;
    ok-stream-polling)     cap "$n" 18201 60 $(pys 18201 --event-store counter --retry-ms 500) -- $(pyc 18201 polling)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids" ;;
    # 2. a 65 s tool call, stream open (sse-starlette ': ping' comments every 15 s)
    inc-request-stalled)   cap "$n" 18202 100 $(pys 18202) -- $(pyc 18202 stalled --timeout 90)
                           check "$n.pcap" "sse 202 sse sse sse sse" ;;
    # 3./4. event id cursor damage by a gateway
    inc-event-id-reuse)    cap "$n" 18203 60 $(pys 18203 --event-store counter --gateway ids-per-stream) -- $(pyc 18203 basic)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids sse-ids" ;;
    inc-event-id-regression) cap "$n" 18204 60 $(pys 18204 --event-store counter --gateway ids-swap:steps) -- $(pyc 18204 steps)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids" ;;
    # 5.-7. resumption
    inc-resume-replay)     cap "$n" 18205 60 $(pys 18205 --event-store replay-all --retry-ms 500) -- $(pyc 18205 resume)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids" ;;
    ok-resume)             cap "$n" 18206 60 $(pys 18206 --event-store counter --retry-ms 500) -- $(pyc 18206 resume)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids" ;;
    inc-resume-unknown-cursor) cap "$n" 18207 60 $(pys 18207 --event-store counter) -- $(pyc 18207 unknown-cursor)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids" ;;
    inc-resume-missing-cursor) cap "$n" 18208 60 $(pys 18208 --event-store counter) -- $(pyc 18208 missing-cursor)
                           check "$n.pcap" "sse-ids 202 sse-ids sse-ids sse-ids sse-ids" ;;
    # 8. the response to tools/call(echo) also written on the GET stream
    inc-duplicate-response) cap "$n" 18209 60 $(pys 18209 --gateway duplicate:echo) -- $(pyc 18209 basic)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    # 9./10. the server forgets the session after 2 tool calls
    inc-session-status)    cap "$n" 18210 60 $(pys 18210 --gateway forget:2:py-400) -- $(pyc 18210 stale-giveup)
                           check "$n.pcap" "sse 202 sse sse sse 400" ;;
    inc-session-status-401) cap "$n" 18211 60 $(pys 18211 --gateway forget:2:rmcp-401) -- $(pyc 18211 stale-giveup)
                           check "$n.pcap" "sse 202 sse sse sse 401" ;;
    inc-session-status-503) cap "$n" 18212 60 $(pys 18212 --gateway forget:2:http-503) -- $(pyc 18212 stale-giveup)
                           check "$n.pcap" "sse 202 sse sse sse 503" ;;
    ok-session-404)        cap "$n" 18213 60 $(pys 18213 --gateway forget:2:sdk-404) -- $(pyc 18213 stale-reinit)
                           check "$n.pcap" "sse 202 sse sse sse 404 sse 202 sse sse sse" ;;
    inc-no-reinitialize)   cap "$n" 18214 60 $(pys 18214 --gateway forget:2:sdk-404) -- $(pyc 18214 stale-retry)
                           check "$n.pcap" "sse 202 sse sse sse 404 404 404" ;;
    # 11. a gateway hands out a new session id mid-session (TypeScript client adopts it)
    inc-session-rotation)  cap "$n" 18215 60 $(pys 18215 --gateway rotate-sid:2) -- $(tsc 18215)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    # 12./13. Streamable HTTP -> HTTP+SSE fallback (TypeScript client, the SDK's documented fallback pattern)
    inc-legacy-fallback)   cap "$n" 18216 60 $(pys 18216 --app sse) -- node "$TS/fallback-client.mjs" "$(url 18216 /sse)"
                           check "$n.pcap" "405 202 202 202 202 202 202 202" ;;
    inc-legacy-fallback-404) cap "$n" 18235 60 node "$TS/legacy-server.mjs" 18235 -- node "$TS/fallback-client.mjs" "$(url 18235 /sse)"
                           check "$n.pcap" "404 202 202 202 202 202 202 202" ;;
    inc-fallback-unjustified) cap "$n" 18217 60 $(pys 18217 --app sse --gateway post-status:/sse=500) -- node "$TS/fallback-client.mjs" "$(url 18217 /sse)"
                           check "$n.pcap" "500 202 202 202 202 202 202 202" ;;
    inc-legacy-post-accepted) cap "$n" 18218 60 node "$TS/legacy-server.mjs" 18218 --post-html -- node "$TS/fallback-client.mjs" "$(url 18218 /sse)"
                           check "$n.pcap" "text/html; charset=utf-8 202 202 202 202 202 202 202" ;;
    inc-endpoint-in-session) cap "$n" 18219 60 $(pys 18219 --gateway endpoint-event) -- $(pyc 18219 basic)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    # 14. the optional GET on the MCP endpoint
    inc-get-misbehavior)   cap "$n" 18220 60 node "$TS/post-only-server.mjs" 18220 -- $(tsc 18220)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    inc-get-misbehavior-json) cap "$n" 18221 60 $(pys 18221 --gateway get:json-200) -- $(pyc 18221 basic)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    ok-get-405)            cap "$n" 18222 60 node "$TS/post-only-server.mjs" 18222 --get-405 -- $(tsc 18222)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    # 15./16. errors from a gateway
    inc-bare-error)        cap "$n" 18223 60 $(pys 18223 --gateway body-limit:1024) -- $(pyc 18223 big-echo)
                           check "$n.pcap" "sse 202 sse sse 413 sse" ;;
    inc-5xx-cascade)       cap "$n" 18224 60 $(pys 18224 --gateway fail-calls:2=502,3=503,4=504) -- $(pyc 18224 retry-5xx)
                           check "$n.pcap" "sse 202 sse sse 502 503 504 sse sse sse" ;;
    # 17.-19. versions and eras
    #     two sessions to the same server: the 2nd initialize is answered with an older version than the 1st
    inc-version-downgrade) cap "$n" 18225 60 $(pys 18225 --gateway rewrite-version:2025-11-25=2025-03-26@2) -- $(pyc 18225 basic-twice)
                           check "$n.pcap" "sse 202 sse sse sse sse sse sse 202 sse sse sse sse sse" ;;
    inc-version-header-mismatch) cap "$n" 18226 60 $(pys 18226) -- $(pyc 18226 header-mismatch)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    inc-method-header-mismatch) cap "$n" 18227 60 $(pys 18227) -- $(pyc 18227 method-mismatch)
                           check "$n.pcap" "json json json 400 json 400 json" ;;
    inc-stateless-session) cap "$n" 18228 60 $(pys 18228 --gateway mint-session) -- $(pyc 18228 modern)
                           check "$n.pcap" "json json json json json json" ;;
    ok-stateless)          cap "$n" 18229 60 $(pys 18229) -- $(pyc 18229 modern-mixed)
                           check "$n.pcap" "json json json json sse json sse json" ;;
    # 20./21. SSE timing
    inc-sse-buffered)      cap "$n" 18230 60 $(pys 18230 --gateway buffer:steps) -- $(pyc 18230 buffered)
                           check "$n.pcap" "sse 202 sse sse sse sse" ;;
    inc-sse-idle)          cap "$n" 18231 70 node "$TS/stateful-server.mjs" 18231 --keepalive-ms 0 -- $(tsc 18231 --pause 32)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    ok-sse-keepalive)      cap "$n" 18232 70 node "$TS/stateful-server.mjs" 18232 --keepalive-ms 10000 -- $(tsc 18232 --pause 32)
                           check "$n.pcap" "sse 202 sse sse sse sse sse" ;;
    # 22. JSON first, then SSE with UUID ids (a shift with a usable cursor)
    ok-uuid-ids)           cap "$n" 18233 60 $(pys 18233 --json-first 3 --event-store uuid) -- $(pyc 18233 basic)
                           check "$n.pcap" "json 202 json json sse-ids sse-ids sse-ids" ;;
    # 23. capture loss: a real JSON session, then one server->client data segment removed with editcap
    inc-capture-gaps)      local src; src="$(mktemp -d)/gaps-source.pcap"
                           capture "$src" 18234 60 $(pys 18234 --json) -- $(pyc 18234 basic)
                           "$PY" "$GEN/py/drop_segment.py" "$src" "$OUT/$n.pcap" --rpc-id 5 --wire "$GEN/wire/$n.source.txt"
                           check "$n.pcap" - ;;
    *) echo "unknown scenario $n" >&2; exit 1 ;;
    esac
}

ALL=(inc-stream-lost ok-stream-polling inc-request-stalled inc-event-id-reuse inc-event-id-regression
     inc-resume-replay ok-resume inc-resume-unknown-cursor inc-resume-missing-cursor inc-duplicate-response
     inc-session-status inc-session-status-401 inc-session-status-503 ok-session-404 inc-no-reinitialize
     inc-session-rotation inc-legacy-fallback inc-legacy-fallback-404 inc-fallback-unjustified inc-legacy-post-accepted
     inc-endpoint-in-session inc-get-misbehavior inc-get-misbehavior-json ok-get-405 inc-bare-error
     inc-5xx-cascade inc-version-downgrade inc-version-header-mismatch inc-method-header-mismatch
     inc-stateless-session ok-stateless inc-sse-buffered inc-sse-idle ok-sse-keepalive ok-uuid-ids
     inc-capture-gaps)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
ls -l "$OUT"/inc-*.pcap "$OUT"/ok-*.pcap 2>/dev/null || true
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

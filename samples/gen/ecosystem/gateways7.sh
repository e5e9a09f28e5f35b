#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways7": real MCP traffic through two MCP gateways from PyPI not yet in the
# corpus, every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <-> upstream MCP server(s),
# on loopback only (127.0.0.1, ports 19910-19929), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways7.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways7.sh SCENARIO..  # some of them
#
# The first gateway: **mcp-policy-gateway** 0.1.0 (PyPI; "an authorising reverse proxy for MCP servers"; built on the
# official Python SDK mcp 2.3.0 on both sides, uvicorn 0.55), its documented HTTP mode `mcp-policy-gateway run -c
# policy.yaml --transport http --host H --port P` (front: the SDK's stateful streamable_http_app behind a bearer-token
# middleware; upstreams: `transport: http` entries, each ONE SDK `Client` (mode "auto") opened at the gateway's start
# and kept for its whole life). Config gateways7/policy.yaml.in: two tokens from the environment (throwaway values set
# below), one policy allowing every tool but echo("secret...") (refused by the gateway itself, as a tool result).
# With two upstreams, tool names are prefixed `py__` / `ts__`.
# The second: **mcp-egress-guard** 1.0.1 (PyPI; "local-first MCP reverse proxy", aiohttp + httpx), its HTTP mode
# (`proxy.transport: http`, `downstream_url`; config gateways7/eg-gateway.yaml.in, otherwise what `mcp-egress-guard
# init` writes): POST / and POST /mcp only; it re-posts each JSON body to the downstream with a new httpx client and
# only `Content-Type: application/json` (no Accept, no Mcp-Session-Id, no protocol version), and answers with
# `resp.json()` under the downstream's status.
#
# Scenarios (capture samples/ecosystem/gateways7-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   pg-py       policy gateway front 19910, upstream the Python SDK server (../py_server.py, 19911). Client
#               gateways7/gw7_client.py (Python SDK 2.3.0, bearer A) --errors: tools/list, add, echo, slow_count(3)
#               with a progressToken, echo("secret A") (policy refusal), unknown tool `nope`, add("x",2) (the
#               upstream's validation error), add(40,2); DELETE.
#   pg-ts       front 19912, upstream the TS SDK 1.32.2 server (../proxies2/ts-server.mjs, 19913). Client
#               gateways7/gw7_client.mjs (TS SDK 1.32.2, bearer B) with the same error calls.
#   pg-agg      front 19914, upstreams py 19915 and ts 19916 (names prefixed py__ / ts__); the Python client (A, py__)
#               and the TS client (B, ts__) at the same time, their calls started together (ready/go files).
#   pg-two      front 19917, upstream py 19918; two Python clients (A and B, two tokens) started together: two front
#               sessions over the gateway's one upstream session.
#   pg-restart  front 19919, upstream py 19920; the Python client pauses before add(1,2), the script restarts the
#               upstream (SIGTERM, same port, a new process), the client goes on in its front session.
#   pg-down     front 19921, upstream py 19922; as pg-restart but the upstream is stopped and NOT started again.
#   pg-noauth   front 19923, upstream py 19924; the Python client without a token (401), then with token A.
#   eg-py       egress guard front 19925, upstream py 19926, the Python client (no token).
#   eg-ts       egress guard front 19927, upstream ts 19928, the TS client (no token).
#
# The upstreams are up before the capture starts (ports seen in the socket table, no probe); the gateway is started
# inside the capture (its upstream handshake is on the wire) and watched for with `ss`; it is stopped (SIGINT, SIGKILL
# after 5 s) before the capture ends. Each client run is bounded (timeout 60; 50 s inside the clients).
#
# Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; the egress guard's OTel export is off in its config; cwd and HOME of
# each gateway are gateways7/run/<scenario> (audit logs, the egress guard's SQLite file). A guard capture on every
# interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py -> ../agentsjs/wire.py), ss, node >= 20 with
# npm, python3 (3.11). First use makes gateways7/.venv (requirements-pg.txt), gateways7/eg/.venv (requirements-eg.txt),
# gateways7/node_modules (package-lock.json), sdks/.venv and proxies2/node_modules, all git-ignored. Results and
# labels: samples/ecosystem/gateways7.md, samples/ecosystem/labels-gateways7.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways7"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways7
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
export PG_TOKEN_A=gateways7-token-a-throwaway PG_TOKEN_B=gateways7-token-b-throwaway
SDKPY="$ECO/sdks/.venv/bin/python"

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements-pg.txt" mcp-policy-gateway
    need_venv "$W/eg/.venv" "$W/requirements-eg.txt" mcp-egress-guard
    need_npm "$ECO/proxies2"
    need_npm "$W"
}

# up KIND PORT LOGNAME: an upstream server in the background (py: the Python SDK server; ts: the TS SDK server); its
# pid in UP_PID.
UP_PID=""
up() {
    case $1 in
        py) bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways7-py-server-{port}" ;;
        ts) bg "$3" env -C "$ECO/proxies2" node ts-server.mjs "$2" ;;
    esac
    UP_PID=$LAST_PID
}

# halt PID: SIGINT to the process group started by bg, SIGKILL if it is still there after 5 s, reaped.
halt() {
    local i
    kill -INT -- "-$1" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# gateway NAME KIND(pg|eg) FRONT UPSTREAM... (KIND:PORT): render the config into RUN/NAME and start the gateway there
# (cwd and HOME); its pid in GW_PID.
GW_PID=""
gateway() {
    local name=$1 kind=$2 front=$3 dir="$RUN/$1" u
    shift 3
    mkdir -p "$dir"
    case $kind in
        pg)
            for u in "$@"; do
                printf '  %s:\n    transport: http\n    url: http://%s:%s/mcp\n' "${u%%:*}" "$HOST" "${u##*:}"
            done >"$dir/upstreams.yaml"
            awk -v f="$dir/upstreams.yaml" '$0 == "@UPSTREAMS@" { while ((getline l < f) > 0) print l; next } { print }' \
                "$W/policy.yaml.in" >"$dir/policy.yaml"
            bg "$name-gateway" env -C "$dir" HOME="$dir" "$W/.venv/bin/mcp-policy-gateway" run -c "$dir/policy.yaml" \
                --transport http --host "$HOST" --port "$front" ;;
        eg)
            (cd "$dir" && HOME="$dir" "$W/eg/.venv/bin/mcp-egress-guard" init --output-dir . >"$dir/init.log" 2>&1)
            sed -e "s/FRONT_PORT/$front/; s/UP_PORT/${1##*:}/" "$W/eg-gateway.yaml.in" >"$dir/gateway.yaml"
            bg "$name-gateway" env -C "$dir" HOME="$dir" "$W/eg/.venv/bin/mcp-egress-guard" run --config "$dir/gateway.yaml" ;;
    esac
    GW_PID=$LAST_PID
}

# gw_scenario NAME KIND FRONT MODE UPSTREAMS -- CLIENT... [-- CLIENT2...]: guard on, the upstreams (space-separated
# KIND:PORT) up, capture of the front and upstream ports, the gateway started inside it, the client run(s), the gateway
# stopped, capture stop and listing, everything down, guard off. MODE: no (one client); two (CLIENT and CLIENT2 at
# once, each given ready/go files by the caller); restart / down (the client pauses (ready/go files), the first
# upstream is stopped (SIGTERM) and, for restart, a new one started on its port); noauth (CLIENT2 first, then CLIENT).
gw_scenario() {
    local name=$1 kind=$2 front=$3 mode=$4 ups=$5 u c c2 ports=() first
    shift 5; [ "$1" = "--" ] && shift
    local cl=() cl2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cl+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    cl2=("$@")
    for u in $ups; do ports+=("${u##*:}"); done
    first=${ups%% *}
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "${ports[@]}")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$front" "${ports[@]}"
    local up_pids=()
    for u in $ups; do up "${u%%:*}" "${u##*:}" "$name-${u%%:*}"; up_pids+=("$UP_PID"); listening "${u##*:}"; done
    sleep 1
    capture_start "$name" "$front" "${ports[@]}"
    # shellcheck disable=SC2086
    gateway "$name" "$kind" "$front" $ups
    listening "$front"
    sleep 1
    case $mode in
        two)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 & c=$!
            timeout 60 "${cl2[@]}" >"$RUN/$name-clientB.log" 2>&1 & c2=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && [ -e "$RUN/$name/B.ready" ] && break; sleep 0.1; done
            touch "$RUN/$name/go"
            wait $c || echo "   (client A exited with $?)"
            wait $c2 || echo "   (client B exited with $?)"
            grep -aE '^\[' "$RUN/$name-clientB.log" | cut -c1-160 | sed "s/^/   client B: /" || true
            ;;
        restart|down)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 & c=$!
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
            echo "   stopping (SIGTERM) the upstream ${first%%:*} on ${first##*:}"
            stop "${up_pids[0]}"
            free "${first##*:}"
            if [ "$mode" = restart ]; then
                echo "   starting a new upstream on ${first##*:}"
                up "${first%%:*}" "${first##*:}" "$name-${first%%:*}2"; listening "${first##*:}"
            fi
            sleep 1
            touch "$RUN/$name/go"
            wait $c || echo "   (client exited with $?)"
            ;;
        noauth)
            timeout 60 "${cl2[@]}" >"$RUN/$name-clientB.log" 2>&1 || echo "   (client without token exited with $?)"
            grep -aE '^\[' "$RUN/$name-clientB.log" | cut -c1-160 | sed "s/^/   client (no token): /" || true
            sleep 0.5
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
            ;;
        *)
            timeout 60 "${cl[@]}" >"$RUN/$name-client.log" 2>&1 || echo "   (client exited with $?)"
            ;;
    esac
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    halt "$GW_PID"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -avE '^\s*$' "$RUN/$name-gateway.log" 2>/dev/null | cut -c1-150 | tail -4 | sed "s/^/   gateway: /" || true
}

PYC=("$SDKPY" "$W/gw7_client.py")
TSC=(node "$W/gw7_client.mjs")
u() { echo "http://$HOST:$1/mcp"; }

scenario_pg-py()      { gw_scenario pg-py pg 19910 no "py:19911" -- "${PYC[@]}" "$(u 19910)" --token-env PG_TOKEN_A --errors; }
scenario_pg-ts()      { gw_scenario pg-ts pg 19912 no "ts:19913" -- "${TSC[@]}" "$(u 19912)" PG_TOKEN_B B "" errors; }
scenario_pg-agg()     {
    local r="$RUN/pg-agg"
    gw_scenario pg-agg pg 19914 two "py:19915 ts:19916" \
        -- "${PYC[@]}" "$(u 19914)" --token-env PG_TOKEN_A --tag A --prefix py__ --pause-at 1 --ready "$r/A.ready" --go "$r/go" \
        -- "${TSC[@]}" "$(u 19914)" PG_TOKEN_B B ts__ "" "$r/B.ready" "$r/go"
}
scenario_pg-two()     {
    local r="$RUN/pg-two"
    gw_scenario pg-two pg 19917 two "py:19918" \
        -- "${PYC[@]}" "$(u 19917)" --token-env PG_TOKEN_A --tag A --pause-at 1 --ready "$r/A.ready" --go "$r/go" \
        -- "${PYC[@]}" "$(u 19917)" --token-env PG_TOKEN_B --tag B --pause-at 1 --ready "$r/B.ready" --go "$r/go"
}
scenario_pg-restart() {
    local r="$RUN/pg-restart"
    gw_scenario pg-restart pg 19919 restart "py:19920" \
        -- "${PYC[@]}" "$(u 19919)" --token-env PG_TOKEN_A --pause-at 1 --ready "$r/A.ready" --go "$r/go"
}
scenario_pg-down()    {
    local r="$RUN/pg-down"
    gw_scenario pg-down pg 19921 down "py:19922" \
        -- "${PYC[@]}" "$(u 19921)" --token-env PG_TOKEN_A --pause-at 1 --ready "$r/A.ready" --go "$r/go"
}
scenario_pg-noauth()  {
    gw_scenario pg-noauth pg 19923 noauth "py:19924" -- "${PYC[@]}" "$(u 19923)" --token-env PG_TOKEN_A \
        -- "${PYC[@]}" "$(u 19923)" --tag noauth --timeout 15
}
scenario_eg-py()      { gw_scenario eg-py eg 19925 no "py:19926" -- "${PYC[@]}" "$(u 19925)" --errors --timeout 20; }
scenario_eg-ts()      { gw_scenario eg-ts eg 19927 no "ts:19928" -- "${TSC[@]}" "$(u 19927)" "" B "" errors; }

ALL=(pg-py pg-ts pg-agg pg-two pg-restart pg-down pg-noauth eg-py eg-ts)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

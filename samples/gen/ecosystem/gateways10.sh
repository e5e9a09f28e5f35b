#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways10": two MCP gateways from PyPI not yet in the corpus, each with its own HTTP
# code on both sides (no MCP SDK server in front), every HTTP hop in one capture: client <-> gateway (the "front"
# port) and gateway <-> upstream, on loopback only (127.0.0.1, ports 20350-20369), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways10.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways10.sh SCENARIO..  # some of them
#
# Gateways:
#   cd-*  **conduit-gateway 0.3.0** (PyPI, "deterministic, local-first MCP federation gateway"; Starlette + httpx):
#         `conduit --config conduit.yaml` (gateways10/conduit.yaml.in: the bundled example, one downstream `up`,
#         tools published as `up.<name>`). Front: 2026-07-28 natively plus a "compatibility" adapter for classic
#         initialize sessions; upstream: 2026-07-28 only (server/discover + tools/list at start and every 60 s, one
#         stateless POST per tools/call).
#   am-*  **authmcp-gateway 1.2.74** (PyPI, "universal authentication gateway for MCP servers"; Starlette + httpx,
#         the `mcp` SDK only imported): `authmcp-gateway start` with a static bearer token (STATIC_BEARER_TOKENS),
#         its SQLite database made by its own `init-db` plus one upstream row (gateways10/am_setup.py). One shared
#         upstream session for every front client, re-initialized by the gateway on a 404.
# Upstreams: the Python SDK 2.3.0 server (../clients4/clients4_server.py: add, slow_count, fail; the sdks group's
# venv) and, for am-ts, the TS SDK 1.32.2 server (../proxies2/ts-server.mjs: add, echo, report, slow_count).
# Clients: gateways10/gw10_client.py (Python SDK 2.3.0, `--mode legacy` classic session or `--mode 2026-07-28`) and
# gateways10/gw10_client.mjs (TS SDK 1.32.2).
#
# Scenarios (capture samples/ecosystem/gateways10-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt),
# front/upstream ports:
#   cd-py       20350/20351  Python client (legacy) -> conduit -> Python server: tools/list, add, slow_count(3) with
#                            a progressToken, fail, add, DELETE
#   cd-modern   20352/20353  the same with the Python client in 2026-07-28 mode (no initialize, no session)
#   cd-ts       20354/20355  TS client -> conduit -> Python server: tools/list, add, slow_count(3), add, DELETE
#   cd-restart  20356/20357  Python client (legacy) pauses after add(1,2); the upstream is stopped (SIGTERM) and a new
#                            one started on its port; add three times more in the same session
#   cd-crash    20358/20359  Python client (legacy): add, slow_count(40); the upstream is SIGKILLed 1.5 s into it and
#                            a new one started at once; 2 s idle; add three times more
#   am-py       20360/20361  Python client (legacy) -> authmcp-gateway -> Python server, the cd-py steps
#   am-ts       20362/20363  TS client -> authmcp-gateway -> TS SDK server, the cd-ts steps
#   am-restart  20364/20365  as cd-restart, through authmcp-gateway
#   am-crash    20366/20367  as cd-crash, through authmcp-gateway
# (20368/20369 were used only for trial runs outside any capture.)
#
# The upstream is up before the capture starts (watched for in the socket table, no probe); the gateway is started
# inside the capture (its start-up traffic to the upstream is on the wire) and watched for with `ss`; it is stopped
# (SIGINT, SIGKILL after 5 s) before the capture ends. Each client run is bounded (timeout 60; 45 s inside).
#
# Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; cwd and HOME of the gateway are gateways10/run/<scenario>. A guard
# capture on every interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py), ss, node >= 20 with npm, python3 (3.11).
# First use makes gateways10/node_modules (package-lock.json), gateways10/.venv-conduit and .venv-authmcp
# (requirements-*.txt, pip freezes), sdks/.venv and proxies2/node_modules, all git-ignored. Results and labels:
# samples/ecosystem/gateways10.md, samples/ecosystem/labels-gateways10.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways10"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways10
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1
SDKPY="$ECO/sdks/.venv/bin/python"
CONDUIT="$W/.venv-conduit/bin/conduit"
AUTHMCP="$W/.venv-authmcp/bin/authmcp-gateway"
TOKEN=gateways10-static-token    # the authmcp-gateway front's static bearer token (a test value, loopback only)

setup() {
    setup_pysdk
    need_npm "$ECO/proxies2"
    need_npm "$W"
    need_venv "$W/.venv-conduit" "$W/requirements-conduit.txt" conduit
    need_venv "$W/.venv-authmcp" "$W/requirements-authmcp.txt" authmcp-gateway
}

# halt PID: SIGINT to the process group started by bg, SIGKILL if it is still there after 5 s, reaped.
halt() {
    local i
    kill -INT -- "-$1" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# up KIND PORT LOGNAME: the upstream (py: the Python SDK server, ts: the TS SDK server) in the background; pid in UP_PID.
UP_PID=""
up() {
    case $1 in
        py) bg "$3" "$SDKPY" "$ECO/clients4/clients4_server.py" "$2" --name "gateways10-py-server" ;;
        ts) bg "$3" node "$ECO/proxies2/ts-server.mjs" "$2" ;;
    esac
    UP_PID=$LAST_PID
}

# prepare KIND NAME FRONT UP: the gateway's files in RUN/NAME (before the capture).
prepare() {
    local kind=$1 dir="$RUN/$2"
    case $kind in
        cd) sed -e "s/@FRONT@/$3/" -e "s/@UP@/$4/" "$W/conduit.yaml.in" >"$dir/conduit.yaml" ;;
        am) (cd "$dir" && "$AUTHMCP" init-db --db-path data/auth.db >/dev/null 2>&1 \
                 && "$W/.venv-authmcp/bin/python" "$W/am_setup.py" data/auth.db up "http://$HOST:$4/mcp" >/dev/null 2>&1) ;;
    esac
}
# gateway KIND NAME FRONT: start the gateway on FRONT, cwd and HOME RUN/NAME; pid in GW_PID.
GW_PID=""
gateway() {
    local kind=$1 name=$2 front=$3 dir="$RUN/$2"
    case $kind in
        cd) bg "$name-gateway" env -C "$dir" HOME="$dir" "$CONDUIT" --config conduit.yaml ;;
        am) bg "$name-gateway" env -C "$dir" HOME="$dir" JWT_SECRET_KEY="gateways10-jwt-secret-$RANDOM$RANDOM$RANDOM" \
                STATIC_BEARER_TOKENS="$TOKEN" AUTH_SQLITE_PATH=data/auth.db MCP_PUBLIC_URL="http://$HOST:$front" \
                "$AUTHMCP" start --host "$HOST" --port "$front" --env-file none ;;
    esac
    GW_PID=$LAST_PID
}

# gw_scenario KIND NAME FRONT UP UPKIND MODE -- CLIENT...: guard on, the upstream up, capture of both ports, the
# gateway started inside it, the client run, the gateway stopped, capture stop and listing, everything down, guard off.
# MODE: plain; restart (the client pauses (ready/go files); the upstream is stopped (SIGTERM) and a new one started
# on its port); crash (when the client's ready file appears, 1.5 s later the upstream is SIGKILLed and a new one
# started at once).
gw_scenario() {
    local kind=$1 name=$2 front=$3 port=$4 upkind=$5 mode=$6 c
    shift 6; [ "$1" = "--" ] && shift
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    rm -f "$RUN/$name"-*.log
    guard_start "$name"
    free "$front" "$port"
    prepare "$kind" "$name" "$front" "$port"
    up "$upkind" "$port" "$name-up"; local up_pid=$UP_PID; listening "$port"
    sleep 1
    capture_start "$name" "$front" "$port"
    gateway "$kind" "$name" "$front"
    listening "$front"
    sleep 1.5
    timeout 60 "$@" >"$RUN/$name-client.log" 2>&1 & c=$!
    case $mode in
        restart)
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
            echo "   stopping (SIGTERM) the upstream on $port"
            stop "$up_pid"
            free "$port"
            echo "   starting a new upstream on $port"
            up "$upkind" "$port" "$name-up2"; listening "$port"
            sleep 1
            touch "$RUN/$name/go"
            ;;
        crash)
            for _ in $(seq 1 300); do [ -e "$RUN/$name/A.ready" ] && break; sleep 0.1; done
            sleep 1.5
            echo "   killing (SIGKILL) the upstream on $port during slow_count"
            stop "$up_pid" KILL
            free "$port"
            up "$upkind" "$port" "$name-up2"; listening "$port"
            ;;
    esac
    wait $c || echo "   (client exited with $?)"
    grep -aE '^\[' "$RUN/$name-client.log" | cut -c1-160 | sed "s/^/   client: /" || true
    sleep 0.5
    halt "$GW_PID"
    capture_stop "$name"
    cleanup
    sleep 1
    guard_stop "$name"
    grep -avE '^\s*$' "$RUN/$name-gateway.log" 2>/dev/null | grep -aiE 'error|warn|exception|session' | cut -c1-150 | tail -6 | sed "s/^/   gateway: /" || true
}

u() { echo "http://$HOST:$1/mcp"; }
PYC=("$SDKPY" "$W/gw10_client.py")
TSC=(env -C "$W" node gw10_client.mjs)
ready() { echo --ready "$RUN/$1/A.ready" --go "$RUN/$1/go"; }

scenario_cd-py()      { gw_scenario cd cd-py 20350 20351 py plain -- "${PYC[@]}" "$(u 20350)" --prefix up.; }
scenario_cd-modern()  { gw_scenario cd cd-modern 20352 20353 py plain -- "${PYC[@]}" "$(u 20352)" --prefix up. --mode 2026-07-28; }
scenario_cd-ts()      { gw_scenario cd cd-ts 20354 20355 py plain -- "${TSC[@]}" "$(u 20354)" "" up.; }
# shellcheck disable=SC2046
scenario_cd-restart() { gw_scenario cd cd-restart 20356 20357 py restart -- "${PYC[@]}" "$(u 20356)" --prefix up. --plan pause $(ready cd-restart); }
# shellcheck disable=SC2046
scenario_cd-crash()   { gw_scenario cd cd-crash 20358 20359 py crash -- "${PYC[@]}" "$(u 20358)" --prefix up. --plan crash $(ready cd-crash); }
scenario_am-py()      { gw_scenario am am-py 20360 20361 py plain -- "${PYC[@]}" "$(u 20360)" --token "$TOKEN"; }
scenario_am-ts()      { gw_scenario am am-ts 20362 20363 ts plain -- "${TSC[@]}" "$(u 20362)" "$TOKEN"; }
# shellcheck disable=SC2046
scenario_am-restart() { gw_scenario am am-restart 20364 20365 py restart -- "${PYC[@]}" "$(u 20364)" --token "$TOKEN" --plan pause $(ready am-restart); }
# shellcheck disable=SC2046
scenario_am-crash()   { gw_scenario am am-crash 20366 20367 py crash -- "${PYC[@]}" "$(u 20366)" --token "$TOKEN" --plan crash $(ready am-crash); }

ALL=(cd-py cd-modern cd-ts cd-restart cd-crash am-py am-ts am-restart am-crash)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

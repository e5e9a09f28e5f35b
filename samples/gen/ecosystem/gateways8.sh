#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways8": real MCP traffic through two MCP gateways/proxies from PyPI not yet in
# the corpus, every HTTP hop in one capture: client <-> gateway (the "front" port) and gateway <-> upstream MCP server,
# on loopback only (127.0.0.1, ports 20090-20109), fully offline.
#
#   sudo bash samples/gen/ecosystem/gateways8.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways8.sh SCENARIO..  # some of them
#
# The first: **mcp-router** 1.1.0 (PyPI; "a routing/proxy system for MCP servers"; Starlette + uvicorn 0.55, the
# official Python SDK mcp 1.30.0 for its upstream clients: mcp-router declares mcp>=1.0.0, but its server code uses the
# SDK 1.x decorator API (`Server.list_tools()`), which mcp 2.x no longer has, so the pins hold mcp 1.30.0). The wheel
# has no entry point and no main.py; gateways8/mr_launch.py starts its HTTP mode with the package's own classes
# (MCPClientManager over gateways8/run/<scenario>/data/*/mcp_settings.json, MCPRouter, MCPServer(transport_type="http")).
# Its front is NOT the SDK's transport: a hand-written Starlette route, POST /mcp only, one JSON body per request, no
# Mcp-Session-Id, one process-wide "initialized" flag; it exposes the router's own tools (mcp.router.use / list / help /
# call), and mcp.router.call(instance, tool, arguments) forwards a tool call to an upstream instance.
# Upstream instance types: `sse` (the SDK's sse_client: GET /sse + POST /messages/?session_id=) and `http` (mcp-router's
# own HTTPClientTransport: an httpx POST to URL/mcp with only its JSON body, protocolVersion 2024-11-05, raise_for_status).
# The second: **greenlight-mcp** 0.7.0 (PyPI; "a transparent stdio/HTTP proxy and live trace viewer"; rich 15 is its
# only dependency), `greenlight run --http UPSTREAM_URL --port FRONT` (gateways8/gl): a stdlib http.server
# (ThreadingHTTPServer, HTTP/1.1, 127.0.0.1) that re-sends each request with urllib (one upstream connection per
# request, `Connection: close`), copying every header but Host and the hop-by-hop ones (Content-Length among them);
# SSE replies are relayed in 256-byte reads with neither Content-Length nor chunked, `Connection: close`.
#
# Scenarios (capture samples/ecosystem/gateways8-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   mr-sse      front 20090, upstream the Python SDK 2.3.0 server (../py_server.py --sse, legacy HTTP+SSE, 20091).
#               Client gateways8/gw8_client.py (Python SDK 2.3.0): tools/list, mcp.router.list, mcp.router.use(py),
#               mcp.router.call(py, ...): add(1,2), echo, the unknown tool `nope`, add("x",2), add(40,2).
#   mr-http     front 20092, upstream the Python SDK server's streamable HTTP app (20093) as an `http` instance.
#   mr-ts-http  front 20094, upstream the TS SDK 1.32.2 server (../proxies2/ts-server.mjs, 20095) as an `http` instance.
#   mr-restart  front 20096, upstream py --sse 20097; the client pauses before the first mcp.router.call, the script
#               restarts the upstream (SIGTERM, same port, a new process), the client goes on.
#   mr-down     front 20098, upstream py --sse 20099; as mr-restart but the upstream is not started again.
#   mr-two      front 20100, upstream py --sse 20101; two Python clients (A and B) started together, their calls
#               released together (ready/go files): two front "sessions" over the gateway's one upstream session.
#   gl-py       greenlight front 20102, upstream the Python SDK server (streamable, 20103); client
#               ../gateways7/gw7_client.py (Python SDK 2.3.0) --errors: tools/list, add, echo, slow_count(3) with a
#               progressToken, echo("secret A"), the unknown tool `nope`, add("x",2), add(40,2); DELETE.
#   gl-ts       greenlight front 20104, upstream the TS SDK server (20105); client ../gateways7/gw7_client.mjs (TS SDK
#               1.32.2) with the same calls.
#   gl-restart  greenlight front 20106, upstream py 20107; the Python client pauses after tools/list, the script restarts
#               the upstream (SIGTERM, same port, a new process), the client goes on with its old session id.
#
# The upstreams are up before the capture starts (ports seen in the socket table, no probe); the gateway is started
# inside the capture (its upstream handshake is on the wire) and watched for with `ss`; it is stopped (SIGINT, SIGKILL
# after 5 s) before the capture ends. Each client run is bounded (timeout 60; 50 s inside the client).
#
# Offline: DO_NOT_TRACK=1, OTEL_SDK_DISABLED=true; cwd and HOME of the gateway are gateways8/run/<scenario>. A guard
# capture on every interface (lib.sh guard_start/guard_stop) checks that nothing but 127.0.0.1 <-> 127.0.0.1 is sent.
#
# Needs root (tcpdump), tcpdump, tshark (listing: ../gateways4/wire.py), ss, node >= 20 with npm, python3 (3.11).
# First use makes gateways8/.venv (requirements.txt), gateways8/gl/.venv (gl/requirements.txt), sdks/.venv,
# proxies2/node_modules and gateways7/node_modules, all git-ignored. Results
# and labels: samples/ecosystem/gateways8.md, samples/ecosystem/labels-gateways8.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways8"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=gateways8
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 OTEL_SDK_DISABLED=true PYTHONDONTWRITEBYTECODE=1
SDKPY="$ECO/sdks/.venv/bin/python"

setup() {
    setup_pysdk
    need_venv "$W/.venv" "$W/requirements.txt"
    need_venv "$W/gl/.venv" "$W/gl/requirements.txt" greenlight
    need_npm "$ECO/proxies2"
    need_npm "$ECO/gateways7"
}

# up KIND PORT LOGNAME: an upstream server in the background (py: the Python SDK server's streamable HTTP app; pysse:
# its legacy HTTP+SSE app; ts: the TS SDK server); its pid in UP_PID.
UP_PID=""
up() {
    case $1 in
        py)    bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --name "gateways8-py-server-{port}" ;;
        pysse) bg "$3" "$SDKPY" "$ECO/py_server.py" "$2" --sse --name "gateways8-py-sse-server-{port}" ;;
        ts)    bg "$3" env -C "$ECO/proxies2" node ts-server.mjs "$2" ;;
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

# gateway NAME FRONT KIND:PORT: write RUN/NAME/data/py/mcp_settings.json (instance "py": type sse -> URL /sse, type
# http -> base URL, mcp-router appends /mcp; "command" is required by its loader even for URL instances, unused) and
# start mcp-router there (cwd and HOME); its pid in GW_PID.
# With GWK=gl: greenlight instead, `greenlight run --http http://HOST:PORT/mcp --port FRONT` (its JSONL session log
# in RUN/NAME/logs, --log-dir).
GW_PID=""
GWK=mr
gateway() {
    local name=$1 front=$2 kind=${3%%:*} port=${3##*:} dir="$RUN/$1" type url
    if [ "$GWK" = gl ]; then
        mkdir -p "$dir/logs"
        bg "$name-gateway" env -C "$dir" HOME="$dir" "$W/gl/.venv/bin/greenlight" run --http "http://$HOST:$port/mcp" \
            --port "$front" --name "$name" --log-dir "$dir/logs"
        GW_PID=$LAST_PID
        return
    fi
    mkdir -p "$dir/data/py"
    case $kind in
        pysse) type=sse; url="http://$HOST:$port/sse" ;;
        *)     type=http; url="http://$HOST:$port" ;;
    esac
    printf '{"name": "py", "type": "%s", "url": "%s", "command": "none"}\n' "$type" "$url" >"$dir/data/py/mcp_settings.json"
    bg "$name-gateway" env -C "$dir" HOME="$dir" "$W/.venv/bin/python" "$W/mr_launch.py" data "$HOST" "$front"
    GW_PID=$LAST_PID
}

# gw_scenario NAME FRONT MODE KIND:PORT -- CLIENT... [-- CLIENT2...]: guard on, the upstream up, capture of the front
# and upstream ports, the gateway started inside it, the client run(s), the gateway stopped, capture stop and
# listing, everything down, guard off. MODE: no (one client); two (CLIENT and CLIENT2 at once); restart / down (the
# client pauses, the upstream is stopped (SIGTERM) and, for restart, a new one started on its port).
gw_scenario() {
    local name=$1 front=$2 mode=$3 u=$4 c c2 port
    shift 4; [ "$1" = "--" ] && shift
    local cl=() cl2=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do cl+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    cl2=("$@")
    port=${u##*:}
    DESCRIBE=("$SDKPY" "$ECO/gateways4/wire.py" "$front" "$port")
    rm -rf "${RUN:?}/$name"; mkdir -p "$RUN/$name"
    guard_start "$name"
    free "$front" "$port"
    up "${u%%:*}" "$port" "$name-up"; local up_pid=$UP_PID; listening "$port"
    sleep 1
    capture_start "$name" "$front" "$port"
    gateway "$name" "$front" "$u"
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
            echo "   stopping (SIGTERM) the upstream on $port"
            stop "$up_pid"
            free "$port"
            if [ "$mode" = restart ]; then
                echo "   starting a new upstream on $port"
                up "${u%%:*}" "$port" "$name-up2"; listening "$port"
            fi
            sleep 1
            touch "$RUN/$name/go"
            wait $c || echo "   (client exited with $?)"
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

PYC=("$SDKPY" "$W/gw8_client.py")
u() { echo "http://$HOST:$1/mcp"; }

scenario_mr-sse()     { gw_scenario mr-sse 20090 no "pysse:20091" -- "${PYC[@]}" "$(u 20090)"; }
scenario_mr-http()    { gw_scenario mr-http 20092 no "py:20093" -- "${PYC[@]}" "$(u 20092)"; }
scenario_mr-ts-http() { gw_scenario mr-ts-http 20094 no "ts:20095" -- "${PYC[@]}" "$(u 20094)"; }
scenario_mr-restart() {
    local r="$RUN/mr-restart"
    gw_scenario mr-restart 20096 restart "pysse:20097" -- "${PYC[@]}" "$(u 20096)" --pause --ready "$r/A.ready" --go "$r/go"
}
scenario_mr-down()    {
    local r="$RUN/mr-down"
    gw_scenario mr-down 20098 down "pysse:20099" -- "${PYC[@]}" "$(u 20098)" --pause --ready "$r/A.ready" --go "$r/go"
}
scenario_mr-two()     {
    local r="$RUN/mr-two"
    gw_scenario mr-two 20100 two "pysse:20101" \
        -- "${PYC[@]}" "$(u 20100)" --tag A --pause --ready "$r/A.ready" --go "$r/go" \
        -- "${PYC[@]}" "$(u 20100)" --tag B --pause --ready "$r/B.ready" --go "$r/go"
}

GW7PY=("$SDKPY" "$ECO/gateways7/gw7_client.py")
GW7TS=(node "$ECO/gateways7/gw7_client.mjs")
scenario_gl-py()      { GWK=gl gw_scenario gl-py 20102 no "py:20103" -- "${GW7PY[@]}" "$(u 20102)" --errors; }
scenario_gl-ts()      { GWK=gl gw_scenario gl-ts 20104 no "ts:20105" -- "${GW7TS[@]}" "$(u 20104)" "" A "" errors; }
scenario_gl-restart() {
    local r="$RUN/gl-restart"
    GWK=gl gw_scenario gl-restart 20106 restart "py:20107" \
        -- "${GW7PY[@]}" "$(u 20106)" --pause-at 1 --ready "$r/A.ready" --go "$r/go"
}

ALL=(mr-sse mr-http mr-ts-http mr-restart mr-down mr-two gl-py gl-ts gl-restart)
run_scenarios "tcpdump tshark ss node npm" -- "$@"

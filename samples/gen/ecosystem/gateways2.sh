#!/usr/bin/env bash
# mcptap ecosystem corpus, group "gateways2": real MCP traffic through MCP gateways with their own HTTP handling
# (IBM ContextForge, LiteLLM's MCP gateway), both hops in one capture: client -> gateway and gateway -> backend
# (the official Python SDK server, mcp 2.3.0, ../gateways/gw_server.py) on separate loopback ports
# (ports 18850-18899 only).
#
#   sudo bash samples/gen/ecosystem/gateways2.sh             # every scenario
#   sudo bash samples/gen/ecosystem/gateways2.sh SCENARIO..  # some of them
#
# Scenarios (capture samples/ecosystem/gateways2-<scenario>.pcap, listing samples/gen/wire/ecosystem/...pcap.txt):
#   contextforge           ContextForge 1.0.7 defaults (stateless Streamable HTTP, JSON replies) on 18850,
#                          virtual server /servers/<id>/mcp, backend on 18860; two client sessions at once
#   contextforge-stateful  the same with USE_STATEFUL_SESSIONS=true, JSON_RESPONSE_ENABLED=false (18851, 18861)
#   litellm                LiteLLM proxy's MCP gateway (/mcp, mcp_servers in its config) on 18852, backend on 18862;
#                          two client sessions at once
#
# Needs root (tcpdump), python3 >= 3.11, tcpdump, tshark (describe.py), curl. First use creates
# gateways2/.venv-cf (requirements-contextforge.txt) and gateways2/.venv-litellm (requirements-litellm.txt);
# the backend and the clients use ../gateways/.venv (mcp 2.3.0; made by gateways.sh). All git-ignored, as is
# gateways2/run/ (sqlite databases, tokens, logs).
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"                                      # wait_port, wait_capturing (sets GEN=samples/gen, OUT=samples)
W="$ECO/gateways2"                                      # harness, pins, venvs
GW="$ECO/gateways"                                      # backend server, describe_gw.py, the mcp 2.3.0 venv
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
PY="$GW/.venv/bin/python"
CF="$W/.venv-cf/bin"
LL="$W/.venv-litellm/bin"
RUN="$W/run"
GROUP=gateways2
DESCRIBE=("$PY" "$GEN/py/describe.py")
# shellcheck source=lib.sh
. "$ECO/lib.sh"                                         # bg, stop, capture_start/stop, run_scenarios
mkdir -p "$CAP" "$WIRE" "$RUN"

setup() {
    need_venv "$GW/.venv" "$GW/requirements.txt"
}
# each gateway's venv is made by the first scenario that needs it
need_cf() { need_venv "$W/.venv-cf" "$W/requirements-contextforge.txt" mcpgateway; }
need_litellm() { need_venv "$W/.venv-litellm" "$W/requirements-litellm.txt" litellm; }

client() { timeout 60 "$PY" "$W/gw2_client.py" "$@"; }
backend_http() { bg "backend-$1" "$PY" "$GW/gw_server.py" http --port "$1" "${@:2}"; wait_port "$1"; }

# two_sessions URL ARGS...: sessions A (slow(3, 0.5) included) and B, initialized one after the other, then
# their calls started together (ready/go files), so both run over the gateway at the same time.
two_sessions() {
    local url=$1; shift
    rm -f "$RUN"/two-*.ready "$RUN/two.go"
    client --url "$url" "$@" --tag A --slow 3,0.5 --ready-file "$RUN/two-A.ready" --go-file "$RUN/two.go" \
        >"$RUN/client-A.log" 2>&1 &
    local a=$!
    for _ in $(seq 1 300); do [ -e "$RUN/two-A.ready" ] && break; sleep 0.1; done
    client --url "$url" "$@" --tag B --ready-file "$RUN/two-B.ready" --go-file "$RUN/two.go" \
        >"$RUN/client-B.log" 2>&1 &
    local b=$!
    for _ in $(seq 1 300); do [ -e "$RUN/two-B.ready" ] && break; sleep 0.1; done
    touch "$RUN/two.go"
    wait $a || echo "   (client A failed: see $RUN/client-A.log)"
    wait $b || echo "   (client B failed: see $RUN/client-B.log)"
    sed "s/^/   /" "$RUN/client-A.log" "$RUN/client-B.log" | cut -c1-150
}

# ------------------------------------------------------------------------------------------- ContextForge
# start_contextforge NAME PORT BACKEND [ENV=VALUE...]: a fresh ContextForge (own sqlite database under
# RUN/cf-NAME, memory cache, no Redis, admin UI off, loopback upstreams allowed) on HOST:PORT; registers the
# backend HOST:BACKEND/mcp as a Streamable HTTP gateway and a virtual server holding its three tools; sets
# CF_URL to that virtual server's MCP endpoint and writes a bearer token (a JWT for the platform admin,
# signed with this run's throwaway secret) to RUN/cf-NAME/token. All of it before the capture starts.
start_contextforge() {
    local name=$1 port=$2 backend=$3 dir="$RUN/cf-$1"; shift 3
    need_cf
    rm -rf "$dir"; mkdir -p "$dir"
    local secret="mcptap-corpus-throwaway-jwt-secret-$RANDOM$RANDOM$RANDOM"
    local envs=(HOST=$HOST PORT=$port "DATABASE_URL=sqlite:///$dir/mcp.db" "JWT_SECRET_KEY=$secret"
        "AUTH_ENCRYPTION_SECRET=mcptap-corpus-throwaway-encryption-$RANDOM$RANDOM$RANDOM"
        PLATFORM_ADMIN_EMAIL=admin@example.com "PLATFORM_ADMIN_PASSWORD=Corpus-$RANDOM$RANDOM-pw!"
        MCPGATEWAY_UI_ENABLED=false MCPGATEWAY_ADMIN_API_ENABLED=false SSRF_ALLOW_LOCALHOST=true
        CACHE_TYPE=memory REDIS_URL= HEALTH_CHECK_INTERVAL=3600 LOG_LEVEL=INFO "$@")
    bg "contextforge-$name" env -C "$dir" "${envs[@]}" "$CF/mcpgateway" --host $HOST --port "$port"
    wait_port "$port"
    env -C "$dir" "${envs[@]}" "$CF/python" -m mcpgateway.utils.create_jwt_token --username admin@example.com \
        --exp 60 --secret "$secret" 2>/dev/null | tail -1 >"$dir/token"
    local auth="Authorization: Bearer $(cat "$dir/token")" gw ids sid
    gw=$(curl -sf -m 60 -X POST -H "$auth" -H 'content-type: application/json' "http://$HOST:$port/gateways" \
        -d "{\"name\":\"gwbackend\",\"url\":\"http://$HOST:$backend/mcp\",\"transport\":\"STREAMABLEHTTP\"}")
    echo "   registered gateway $(echo "$gw" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["id"], d["url"])')"
    ids=$(curl -sf -m 30 -H "$auth" "http://$HOST:$port/tools" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
d = d if isinstance(d, list) else d.get("items", d)
print(json.dumps([t["id"] for t in d]))')
    sid=$(curl -sf -m 30 -X POST -H "$auth" -H 'content-type: application/json' "http://$HOST:$port/servers" \
        -d "{\"server\":{\"name\":\"mcptap-vs\",\"associated_tools\":$ids}}" |
        "$PY" -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    CF_URL="http://$HOST:$port/servers/$sid/mcp"
    echo "   virtual server $CF_URL"
}

scenario_contextforge() {
    backend_http 18860
    start_contextforge default 18850 18860
    sleep 1
    capture_start contextforge 18850 18860
    two_sessions "$CF_URL" --bearer-file "$RUN/cf-default/token" --prefix gwbackend-
    capture_stop contextforge
    cleanup
}

scenario_contextforge-stateful() {
    backend_http 18861
    start_contextforge stateful 18851 18861 USE_STATEFUL_SESSIONS=true JSON_RESPONSE_ENABLED=false
    sleep 1
    capture_start contextforge-stateful 18851 18861
    two_sessions "$CF_URL" --bearer-file "$RUN/cf-stateful/token" --prefix gwbackend-
    capture_stop contextforge-stateful
    cleanup
}

# ------------------------------------------------------------------------------------------------ LiteLLM
scenario_litellm() {
    need_litellm
    backend_http 18862
    local dir="$RUN/litellm"
    rm -rf "$dir"; mkdir -p "$dir"
    sed "s/BACKEND_PORT/18862/" "$W/litellm.yaml" >"$dir/config.yaml"
    bg litellm env -C "$dir" LITELLM_MASTER_KEY=sk-mcptap-corpus-throwaway LITELLM_TELEMETRY=False \
        "$LL/litellm" --config "$dir/config.yaml" --host $HOST --port 18852
    wait_port 18852
    echo "sk-mcptap-corpus-throwaway" >"$dir/token"
    sleep 2
    capture_start litellm 18852 18862
    two_sessions "http://$HOST:18852/mcp" --bearer-file "$dir/token" --prefix gwbackend-
    capture_stop litellm
    cleanup
}

ALL=(contextforge contextforge-stateful litellm)
run_scenarios "tcpdump tshark curl" -- "$@"

#!/usr/bin/env bash
# mcptap ecosystem corpus, group "auth": MCP authorization (OAuth 2.1, protected resource metadata, 401 with
# `WWW-Authenticate: Bearer ... resource_metadata=...`, 403 insufficient_scope step-up) in the middle of a session,
# with the official SDKs' own auth code. Every hop (client -> resource server, client -> authorization server,
# resource server -> authorization server introspection) is in one capture.
#   AS   the TS SDK 1.32.2 (auth/server.mjs): mcpAuthRouter over the SDK's demo DemoInMemoryAuthProvider, with the
#        settings a deployment sets: access token lifetime TTL, refresh tokens (rotated), RFC 7009 revocation, and
#        optionally an operator revoking every grant REVOKE s after the first token; /introspect as in the demo.
#   RS   TS: the same process, mcpAuthMetadataRouter + requireBearerAuth (introspection verifier) + stateful
#        StreamableHTTPServerTransport; tool admin_report needs scope mcp:admin (requireBearerAuth requiredScopes).
#        Python: mcp 2.3.0 MCPServer with AuthSettings + an introspecting TokenVerifier (auth/server.py).
#   clients  TS SDK 1.32.2 Client + StreamableHTTPClientTransport(authProvider) (auth/client.mjs); Python SDK
#        mcp 2.3.0 OAuthClientProvider on httpx2 + streamable_http_client + ClientSession (auth/client.py). Both
#        start without a token (full discovery); the harness fetches the authorization URL on loopback itself.
# Captured on loopback (127.0.0.1, ports 20690-20709):
#   ts-expiry        TS client -> TS RS :20691, AS :20690, TTL 5 s: add() x6, 2 s apart
#   ts-revoke        TS client -> TS RS :20693, AS :20692, TTL 300 s, every grant revoked 3 s in: add() x5, 2 s apart
#   ts-stepup        TS client -> TS RS :20695, AS :20694, TTL 300 s: add() x4 1 s apart, admin_report after the 2nd
#   py-expiry        Python client -> TS RS :20697, AS :20696, TTL 5 s: add() x6, 2 s apart
#   py-stepup        Python client -> TS RS :20699, AS :20698, TTL 300 s: as ts-stepup
#   pyserver-expiry  TS client -> Python RS :20702, AS :20700 (its TS RS :20701 idle, not captured), TTL 5 s: add() x6
#   pyserver-revoke  Python client -> Python RS :20705, AS :20703 (TS RS :20704 idle), TTL 300 s, revoke 3 s in:
#                    add() x5, 2 s apart
#   ts-example-verifier  TS client -> TS RS :20707, AS :20706, TTL 300 s, every grant revoked 3 s in, the RS's
#                    verifier as the SDK example writes it (a plain Error for an inactive token): add() x5, 2 s apart
# (ports 20706-20708 were also used for trial runs before the captures; 20709 is the clients' redirect URI, never
# opened.)
#
#   sudo bash samples/gen/ecosystem/auth.sh             # every scenario
#   sudo bash samples/gen/ecosystem/auth.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/auth-<scenario>.pcap, listings samples/gen/wire/ecosystem/auth-<scenario>.pcap.txt
# (agents/wire.py - PORT...). Each client run is bounded (timeout 60); every process is stopped after its scenario;
# a guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1.
#
# Needs root (tcpdump), tcpdump, tshark, ss (iproute2), python3, node 20 + npm. First use makes auth/.venv
# (auth/requirements.txt: mcp 2.3.0) and auth/node_modules (`npm ci`: @modelcontextprotocol/sdk 1.32.2, zod 3.25.76).
# Results and labels: samples/ecosystem/auth.md, samples/ecosystem/labels-auth.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/auth"
EXAMPLE=""
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=auth
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1 NO_UPDATE_NOTIFIER=1

PY="$W/.venv/bin/python"
setup() {
    need_venv "$W/.venv" "$W/requirements.txt"
    need_npm "$W"
}
U() { echo "http://$HOST:$1/mcp"; }

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
        grep -vE '^\s*$|^\s' "$f" | cut -c1-160 | tail -14 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
# ts_up NAME AS RS TTL REVOKE: the TS authorization + resource server.
ts_up() { bg "$1-server" node "$W/server.mjs" "$2" "$3" "$4" "$5" ${EXAMPLE:+example}; listening "$2"; listening "$3"; }
py_up() { bg "$1-pyserver" "$PY" "$W/server.py" "$3" "http://$HOST:$2/"; listening "$3"; }
tsclient() { local name=$1; shift; timeout 60 node "$W/client.mjs" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"; }
pyclient() { local name=$1; shift; timeout 60 "$PY" "$W/client.py" "$@" >"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"; }

# ts NAME AS RS TTL REVOKE CLIENT-ARGS...: TS AS+RS, a client, one capture of both ports.
ts_rs() {
    local name=$1 as=$2 rs=$3 ttl=$4 revoke=$5 kind=$6; shift 6
    begin "$name" "$as" "$rs"
    ts_up "$name" "$as" "$rs" "$ttl" "$revoke"
    capture_start "$name" "$as" "$rs"
    "$kind" "$name" "$(U "$rs")" "$@"
    finish "$name"
}
py_rs() {
    local name=$1 as=$2 idle=$3 rs=$4 ttl=$5 revoke=$6 kind=$7; shift 7
    begin "$name" "$as" "$rs"
    ts_up "$name" "$as" "$idle" "$ttl" "$revoke"
    py_up "$name" "$as" "$rs"
    capture_start "$name" "$as" "$rs"
    "$kind" "$name" "$(U "$rs")" "$@"
    finish "$name"
}
scenario_ts-expiry() { ts_rs ts-expiry 20690 20691 5 0 tsclient 6 2000; }
scenario_ts-revoke() { ts_rs ts-revoke 20692 20693 300 3 tsclient 5 2000; }
scenario_ts-stepup() { ts_rs ts-stepup 20694 20695 300 0 tsclient 4 1000 admin; }
scenario_ts-example-verifier() { EXAMPLE=1 ts_rs ts-example-verifier 20706 20707 300 3 tsclient 5 2000; }
scenario_py-expiry() { ts_rs py-expiry 20696 20697 5 0 pyclient 6 2; }
scenario_py-stepup() { ts_rs py-stepup 20698 20699 300 0 pyclient 4 1 admin; }
scenario_pyserver-expiry() { py_rs pyserver-expiry 20700 20701 20702 5 0 tsclient 6 2000; }
scenario_pyserver-revoke() { py_rs pyserver-revoke 20703 20704 20705 300 3 pyclient 5 2; }

ALL=(ts-expiry ts-revoke ts-stepup ts-example-verifier py-expiry py-stepup pyserver-expiry pyserver-revoke)

run_scenarios "tcpdump tshark ss node python3" -- "$@"

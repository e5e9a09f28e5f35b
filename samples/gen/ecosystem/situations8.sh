#!/usr/bin/env bash
# mcptap ecosystem corpus, group "situations8": Streamable HTTP when the CLIENT closes first, real clients with their
# defaults. Servers: the official Python SDK (mcp 2.3.0, situations8/server.py) and the official TS SDK 1.32.2
# (situations8/server.mjs), each with slow(15) (one progress notification a second, then the answer) and ticker(n, ms)
# (notifications on the standalone GET stream). Clients: the Python SDK client (mcp 2.3.0, situations8/client.py), the
# TS SDK client (situations8/client.mjs) and, for the GET reopen, an httpx2 client (situations8/getreopen.py).
# Captured on loopback (127.0.0.1, ports 20610-20620 but 20615 and 20618) or, for vanish-netns, on the server side of a veth pair between
# two network namespaces made here (10.208.8.1 server, 10.208.8.2 client, port 20618; both deleted afterwards):
#   ts-abort            TS client -> TS server :20610: slow(15) with an AbortSignal aborted after 3.5 s, then add(1,2)
#   py-read-timeout     Python client -> Python server :20611: slow(15) with read_timeout_seconds=3, then add(1,2)
#   py-cancel-scope     Python client -> Python server :20612: slow(15) in anyio.move_on_after(3), then add(1,2)
#   py-read-timeout-legacy, py-cancel-scope-legacy  the same two with Client(URL, mode="legacy") (initialize, a
#                       session), Python server :20619 and :20620
#   sigkill-py          Python client -> Python server :20613: slow(15); the client process is SIGKILLed 4 s in
#   sigkill-restart-ts  TS client -> TS server :20614: slow(15); the client is SIGKILLed 4 s in, then the same program
#                       runs again (a new initialize) and waits for its slow(15)
#   vanish-netns        TS client (netns s8cli) -> Python server (netns s8srv) :20618: slow(15); 4 s in the
#                       client's address is flushed from its veth (it vanishes: no FIN, no RST, its kernel drops what
#                       arrives) while the server goes on writing; captured on the server's veth for 75 s more
#   get-reopen-py       httpx2 client -> Python server :20616 with an in-memory EventStore: GET stream closed by the
#                       client and reopened with Last-Event-ID, closed again and reopened without it
#   get-reopen-ts       the same client -> TS server :20617 with the SDK's InMemoryEventStore
# (ports 20628-20629 were used for trial runs outside any capture.)
#
#   sudo bash samples/gen/ecosystem/situations8.sh             # every scenario
#   sudo bash samples/gen/ecosystem/situations8.sh SCENARIO..  # some of them
#
# Captures samples/ecosystem/situations8-<scenario>.pcap, listings samples/gen/wire/ecosystem/situations8-<scenario>
# .pcap.txt (../agents/wire.py - PORT...). Each client run is bounded (timeout); every process is stopped after its
# scenario; a guard capture on every interface (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1
# (for vanish-netns it runs in the root namespace: the namespaces' own traffic is the capture).
#
# Needs root (tcpdump, ip netns), tcpdump, tshark, ss, ip (iproute2), python3 (3.11), node 20 + npm. First use makes
# situations8/.venv (requirements.txt: mcp 2.3.0) and situations8/node_modules (`npm ci`: @modelcontextprotocol/sdk
# 1.32.2, zod 3.25.76). Nothing else is installed. Results and labels: samples/ecosystem/situations8.md,
# samples/ecosystem/labels-situations8.tsv.
set -euo pipefail

HOST=127.0.0.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/situations8"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=situations8
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
    cleanup
    sleep 1
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
pyserver() { local name=$1 port=$2; shift 2; bg "$name-server" "$PY" "$W/server.py" "$port" "$name" "$@"; listening "$port"; }
tsserver() { local name=$1 port=$2; shift 2; bg "$name-server" node "$W/server.mjs" "$port" "$@"; listening "$port"; }
client() { local name=$1; shift; timeout 60 "$@" >>"$RUN/$name-client.log" 2>&1 || echo "   ($name client exited with $?)"; }
# killed NAME SECONDS CMD...: CMD (the client program itself, no timeout wrapper: SIGKILL must reach it) in the
# background, SIGKILLed after SECONDS (which bounds it).
killed() {
    local name=$1 s=$2 pid; shift 2
    "$@" >>"$RUN/$name-client.log" 2>&1 &
    pid=$!
    sleep "$s"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "[killed with SIGKILL]" >>"$RUN/$name-client.log"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_ts-abort() {
    local name=ts-abort
    begin "$name" 20610; tsserver "$name" 20610; capture_start "$name" 20610
    client "$name" node "$W/client.mjs" "$(U 20610)" abort
    sleep 2
    finish "$name"
}
scenario_py-read-timeout() {
    local name=py-read-timeout
    begin "$name" 20611; pyserver "$name" 20611; capture_start "$name" 20611
    client "$name" "$PY" "$W/client.py" "$(U 20611)" readtimeout
    sleep 14   # the server's slow(15) runs to its end (or not) after the client is done
    finish "$name"
}
scenario_py-cancel-scope() {
    local name=py-cancel-scope
    begin "$name" 20612; pyserver "$name" 20612; capture_start "$name" 20612
    client "$name" "$PY" "$W/client.py" "$(U 20612)" cancelscope
    sleep 14
    finish "$name"
}
scenario_py-read-timeout-legacy() {
    local name=py-read-timeout-legacy
    begin "$name" 20619; pyserver "$name" 20619; capture_start "$name" 20619
    client "$name" "$PY" "$W/client.py" "$(U 20619)" readtimeout legacy
    sleep 14
    finish "$name"
}
scenario_py-cancel-scope-legacy() {
    local name=py-cancel-scope-legacy
    begin "$name" 20620; pyserver "$name" 20620; capture_start "$name" 20620
    client "$name" "$PY" "$W/client.py" "$(U 20620)" cancelscope legacy
    sleep 14
    finish "$name"
}
scenario_sigkill-py() {
    local name=sigkill-py
    begin "$name" 20613; pyserver "$name" 20613; capture_start "$name" 20613
    killed "$name" 4 "$PY" "$W/client.py" "$(U 20613)" hang
    sleep 14
    finish "$name"
}
scenario_sigkill-restart-ts() {
    local name=sigkill-restart-ts
    begin "$name" 20614; tsserver "$name" 20614; capture_start "$name" 20614
    killed "$name" 4 node "$W/client.mjs" "$(U 20614)" hang
    sleep 2
    client "$name" node "$W/client.mjs" "$(U 20614)" hang
    sleep 2
    finish "$name"
}
NS_S=s8srv NS_C=s8cli
netns_down() { ip netns del "$NS_C" 2>/dev/null || true; ip netns del "$NS_S" 2>/dev/null || true; }
scenario_vanish-netns() {
    local name=vanish-netns port=20618 pid cpid mac
    DESCRIBE=("$PY" "$ECO/agents/wire.py" - "$port")
    guard_start "$name"
    rm -f "$RUN/$name"-*.log "$CAP/$GROUP-$name.pcap"
    netns_down
    ip netns add "$NS_S"; ip netns add "$NS_C"
    ip link add s8-srv netns "$NS_S" type veth peer name s8-cli netns "$NS_C"
    ip -n "$NS_S" addr add 10.208.8.1/30 dev s8-srv; ip -n "$NS_C" addr add 10.208.8.2/30 dev s8-cli
    ip -n "$NS_S" link set s8-srv up; ip -n "$NS_C" link set s8-cli up
    ip -n "$NS_S" link set lo up; ip -n "$NS_C" link set lo up
    # static neighbours: the server's kernel keeps sending to the vanished client without ARP in the way
    mac=$(ip -n "$NS_C" -br link show s8-cli | awk '{print $3}')
    ip -n "$NS_S" neigh replace 10.208.8.2 lladdr "$mac" dev s8-srv nud permanent
    bg "$name-server" ip netns exec "$NS_S" "$PY" "$W/server.py" "$port" "$name" --host 10.208.8.1
    for _ in $(seq 1 300); do [ -n "$(ip netns exec "$NS_S" ss -Hltn "src 10.208.8.1:$port")" ] && break; sleep 0.1; done
    ip netns exec "$NS_S" tcpdump -i s8-srv -s 0 -U -w "$CAP/$GROUP-$name.pcap" "tcp port $port" 2>"$RUN/tcpdump-$name.log" &
    TCPDUMP_PID=$!
    wait_capturing "$RUN/tcpdump-$name.log"
    ip netns exec "$NS_C" timeout 100 node "$W/client.mjs" "http://10.208.8.1:$port/mcp" hang >>"$RUN/$name-client.log" 2>&1 &
    cpid=$!
    sleep 4
    ip -n "$NS_C" addr flush dev s8-cli
    echo "[client address flushed]" >>"$RUN/$name-client.log"
    sleep 75   # slow(15) ends at 15 s; the server's retransmissions go on past the 60 s stall threshold
    capture_stop "$name"
    kill -KILL "$cpid" 2>/dev/null || true; wait "$cpid" 2>/dev/null || true
    cleanup
    sleep 1
    netns_down
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do grep -vE '^\s*$' "$f" | cut -c1-160 | tail -8 | sed "s/^/   $(basename "$f" .log): /" || true; done
}
scenario_get-reopen-py() {
    local name=get-reopen-py
    begin "$name" 20616; pyserver "$name" 20616 --event-store; capture_start "$name" 20616
    client "$name" "$PY" "$W/getreopen.py" "$(U 20616)"
    finish "$name"
}
scenario_get-reopen-ts() {
    local name=get-reopen-ts
    begin "$name" 20617; tsserver "$name" 20617 store; capture_start "$name" 20617
    client "$name" "$PY" "$W/getreopen.py" "$(U 20617)"
    finish "$name"
}

ALL=(ts-abort py-read-timeout py-cancel-scope py-read-timeout-legacy py-cancel-scope-legacy sigkill-py sigkill-restart-ts vanish-netns get-reopen-py get-reopen-ts)

run_scenarios "tcpdump tshark ss ip node npm python3" -- "$@"

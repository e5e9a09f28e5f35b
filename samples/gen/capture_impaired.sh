#!/usr/bin/env bash
# Capture real MCP SDK traffic that crossed an impaired path: samples/impaired-*.pcap.
#
#   sudo bash samples/gen/capture_impaired.sh                       # all impaired captures
#   sudo bash samples/gen/capture_impaired.sh impaired-downgrade    # only the named capture(s)
#
# Three network namespaces of our own, joined by two veth pairs:
#
#   mcptap-imp-c (client)            mcptap-imp-r (relay)              mcptap-imp-s (server)
#   c0 10.77.0.1/24 <--veth--> c1 [impair.py relay] s1 <--veth--> s0 10.77.0.2/24
#
# The relay (impair.py, stdlib Python) bridges c1 and s1 in user space with AF_PACKET sockets and drops,
# duplicates, reorders and delays TCP data segments from a seeded RNG (the kernel here has no netem qdisc).
# tcpdump runs inside the server namespace on s0, so each capture shows the path as the server saw it:
# client segments arriving out of order, twice or late (and lost ones arriving only as retransmissions),
# and the server's own retransmissions of the segments the relay dropped on the way back.
#
# Needs root, ip (iproute2), tcpdump, tshark (for the check), python3 and node; the SDKs are set up as in
# capture_all.sh (samples/gen/.venv, samples/gen/ts/node_modules). The addresses exist only inside the
# namespaces; the namespaces are deleted on exit. Every run is bounded (client timeout 60 s, relay 300 s).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NS_C=mcptap-imp-c NS_R=mcptap-imp-r NS_S=mcptap-imp-s
CLIENT_IP=10.77.0.1 SERVER_IP=10.77.0.2
HOST=$SERVER_IP PROBE_NS=$NS_C  # lib.sh: wait_port probes the server from the client namespace

# ---------------------------------------------------------------- setup
if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
if [ ! -d "$TS/node_modules/@modelcontextprotocol/sdk" ]; then
    (cd "$TS" && npm ci --silent)
fi
for tool in ip tcpdump tshark node; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    PIDS=()
    for ns in "$NS_C" "$NS_R" "$NS_S"; do ip netns del "$ns" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

make_path() {  # the three namespaces, fresh for every capture (no ARP or TCP state carried over)
    cleanup
    for ns in "$NS_C" "$NS_R" "$NS_S"; do
        ip netns add "$ns"
        # IPv4 only: no IPv6 router solicitations or DAD noise on the veths
        in_ns "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
        in_ns "$ns" ip link set lo up
    done
    ip link add c0 netns "$NS_C" type veth peer name c1 netns "$NS_R"
    ip link add s0 netns "$NS_S" type veth peer name s1 netns "$NS_R"
    in_ns "$NS_C" ip addr add "$CLIENT_IP/24" dev c0
    in_ns "$NS_S" ip addr add "$SERVER_IP/24" dev s0
    # One MTU per frame and real checksums: AF_PACKET cannot re-send a 64 KiB GSO frame.
    in_ns "$NS_C" python3 "$GEN/impair.py" offload-off c0
    in_ns "$NS_S" python3 "$GEN/impair.py" offload-off s0
    in_ns "$NS_R" python3 "$GEN/impair.py" offload-off c1 s1
    in_ns "$NS_C" ip link set c0 up
    in_ns "$NS_S" ip link set s0 up
    in_ns "$NS_R" ip link set c1 up
    in_ns "$NS_R" ip link set s1 up
}

# capture FILE PORT SEED RELAY-OPTIONS -- SERVER-CMD -- CLIENT-CMD
capture() {
    local file=$1 port=$2 seed=$3; shift 3
    local relay=() server=() client=()
    while [ "$1" != "--" ]; do relay+=("$1"); shift; done
    shift
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    local tmp
    tmp="$(mktemp -d)"
    echo "== $file (port $port, relay seed $seed: ${relay[*]:-no impairment})"
    make_path

    ip netns exec "$NS_R" python3 "$GEN/impair.py" relay --a c1 --b s1 --seed "$seed" "${relay[@]}" \
        --log "$tmp/relay.log" --max-seconds 300 2>"$tmp/relay.err" &
    local relay_pid=$!
    PIDS+=("$relay_pid")
    ip netns exec "$NS_S" "${server[@]}" >"$tmp/server.log" 2>&1 &
    local server_pid=$!
    PIDS+=("$server_pid")
    wait_port "$port"

    rm -f "$OUT/$file"
    ip netns exec "$NS_S" tcpdump -i s0 -s 0 -U -Z root -w "$OUT/$file" "tcp port $port" 2>"$tmp/cap.log" &
    local cap_pid=$!
    PIDS+=("$cap_pid")
    wait_capturing "$tmp/cap.log"

    local rc=0
    in_ns "$NS_C" timeout 60 "${client[@]}" >"$tmp/client.log" 2>&1 || rc=$?
    sed 's/^/   client: /' "$tmp/client.log"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$file"); }
    sleep 2   # let retransmissions of the last segments and the FIN exchanges finish

    kill -INT "$cap_pid"; wait "$cap_pid" || true
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    kill -TERM "$relay_pid"; wait "$relay_pid" || true
    PIDS=()
    grep -E 'packets captured|dropped by kernel' "$tmp/cap.log" | sed 's/^/   /' || true
    sed 's/^/   /' "$tmp/relay.err"
    if grep -q 'oversize=[1-9]' "$tmp/relay.err"; then
        echo "   the relay saw frames over one MTU: offload-off did not take; the capture is not trustworthy" >&2
        FAILED+=("$file")
    fi
    # the relay's own log of every segment it impaired, kept beside the scripts
    mkdir -p "$GEN/wire"
    cp "$tmp/relay.log" "$GEN/wire/$file.relay.log"
    chmod 644 "$OUT/$file"
    rm -rf "$tmp"
}

FAILED=()

url() { echo "http://$SERVER_IP:$1/mcp"; }
py_server() { echo "$PY" "$GEN/py/mcp_sample.py" server --host "$SERVER_IP" --port "$@"; }
py_client() { echo "$PY" "$GEN/py/mcp_sample.py" client --url "$(url "$1")"; }
ts_client() { echo node "$TS/client.mjs" "$(url "$1")"; }

# Impairment per data segment, each direction: 4 % lost, 4 % duplicated, 6 % reordered, 6 % delayed
# (10-40 ms). "A few percent" each, as a lossy Wi-Fi or mobile path; the seed makes the decisions
# repeatable for the same sequence of segments.
IMPAIR=(--drop 0.04 --dup 0.04 --reorder 0.06 --delay 0.06 --delay-ms 10 40)
DOWNGRADE="json 202 json json sse sse sse"
CLEAN_SSE_IDS="sse-ids 202 sse-ids sse-ids sse-ids sse-ids sse-ids"

run_scenario() {
    case "$1" in
    # name                file                            port  seed relay        server                           client
    impaired-downgrade)    capture impaired-downgrade.pcap    18201 43 "${IMPAIR[@]}" -- $(py_server 18201 --json-first 3) -- $(py_client 18201)
                           check impaired-downgrade.pcap "$DOWNGRADE" ;;
    impaired-ts-downgrade) capture impaired-ts-downgrade.pcap 18202 64 "${IMPAIR[@]}" -- $(py_server 18202 --json-first 3) -- $(ts_client 18202)
                           check impaired-ts-downgrade.pcap "$DOWNGRADE" ;;
    impaired-clean)        capture impaired-clean.pcap        18203 83 "${IMPAIR[@]}" -- $(py_server 18203 --event-store) -- $(py_client 18203)
                           check impaired-clean.pcap "$CLEAN_SSE_IDS" ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(impaired-downgrade impaired-ts-downgrade impaired-clean)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
ls -l "$OUT"/impaired-*.pcap 2>/dev/null || true
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

#!/usr/bin/env bash
# Capture real MCP SDK traffic inside tunnels: samples/tunnel-*.pcap.
#
#   sudo bash samples/gen/capture_tunnels.sh                   # all seven captures (about 15 s)
#   sudo bash samples/gen/capture_tunnels.sh tunnel-vxlan      # only the named capture(s) (file name without .pcap)
#
# Real VXLAN through the kernel: two network namespaces of our own, a veth pair as the underlay and a vxlan
# device in each, the overlay on top:
#
#   mcpt-a (client)                                      mcpt-b (server)
#   vx0 10.251.0.1/24  (VNI 42)                          vx0 10.251.0.2/24
#    |                                                    |
#   veth-a 10.250.0.1/24 <------------ veth ------------> veth-b 10.250.0.2/24
#
# The downgrade scenario of capture_all.sh (Python server behind the JSON-first gateway, --json-first 3) runs
# across the overlay; tcpdump on veth-a (filter udp port 4789 or 8472) writes the capture, a second tcpdump on
# vx0 (tcp port N) the same traffic decapsulated, kept in the scratch folder only.
#   tunnel-vxlan       dstport 4789 (IANA; AWS VPC Traffic Mirroring), Python client
#   tunnel-vxlan-8472  dstport 8472 (the Linux default, flannel), TypeScript client; tshark needs
#                      -d udp.port==8472,vxlan
# The kernel here has no geneve, gre, gretap, erspan or ipip link type, so the other tunnels are written by
# py/encap.py (scapy) around the frames of the tunnel-vxlan overlay capture, frame for frame, timestamps kept:
#   tunnel-geneve tunnel-gre tunnel-erspan2 tunnel-erspan3 tunnel-ipip
# (run alone, each of these runs tunnel-vxlan first for its overlay capture).
#
# Needs root, ip (iproute2), tcpdump, tshark, python3 and node; the SDKs are set up as in capture_all.sh
# (samples/gen/.venv, samples/gen/ts/node_modules), scapy in samples/gen/.venv-tunnels (requirements-tunnels.txt).
# The addresses exist only inside the two namespaces, which are deleted on exit; every run is bounded (client
# timeout 60 s, every wait bounded). Scratch files (the overlay captures) go to a mktemp -d folder (TMPDIR is
# honoured), removed on exit unless KEEP_SCRATCH=1.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NS_A=mcpt-a NS_B=mcpt-b
UNDER_A=10.250.0.1 UNDER_B=10.250.0.2
OVER_A=10.251.0.1 OVER_B=10.251.0.2
VNI=42
HOST=$OVER_B PROBE_NS=$NS_A  # lib.sh: wait_port probes the server's overlay address from the client namespace
TPY="$GEN/.venv-tunnels/bin/python"

# ---------------------------------------------------------------- setup
if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
if [ ! -d "$TS/node_modules/@modelcontextprotocol/sdk" ]; then
    (cd "$TS" && npm ci --silent)
fi
if [ ! -x "$TPY" ]; then
    python3 -m venv "$GEN/.venv-tunnels"
    "$GEN/.venv-tunnels/bin/pip" install --quiet -r "$GEN/requirements-tunnels.txt"
fi
for tool in ip tcpdump tshark node; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

SCRATCH="$(mktemp -d)"
# tshark profile for describe.py on the 8472 capture: describe.py runs tshark without -d, so decode-as
# comes from this profile's decode_as_entries (WIRESHARK_CONFIG_DIR)
mkdir -p "$SCRATCH/ws-decode-as"
echo "decode_as_entry: udp.port,8472,(none),VXLAN" >"$SCRATCH/ws-decode-as/decode_as_entries"

PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    PIDS=()
    for ns in "$NS_A" "$NS_B"; do ip netns del "$ns" 2>/dev/null || true; done
}
trap 'cleanup; [ -n "${KEEP_SCRATCH:-}" ] && echo "scratch kept in $SCRATCH" || rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM

in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# make_path DSTPORT: the two namespaces, fresh for every capture (no ARP, FDB or TCP state carried over)
make_path() {
    local dstport=$1
    cleanup
    for ns in "$NS_A" "$NS_B"; do
        ip netns add "$ns"
        # IPv4 only: no IPv6 router solicitations or DAD noise inside the tunnel
        in_ns "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
        in_ns "$ns" ip link set lo up
    done
    # fixed, locally administered MACs, so every run shows the same addresses
    ip link add veth-a netns "$NS_A" address 02:00:00:fa:00:01 type veth peer name veth-b netns "$NS_B" address 02:00:00:fa:00:02
    in_ns "$NS_A" ip addr add "$UNDER_A/24" dev veth-a
    in_ns "$NS_B" ip addr add "$UNDER_B/24" dev veth-b
    in_ns "$NS_A" ip link set veth-a up
    in_ns "$NS_B" ip link set veth-b up
    in_ns "$NS_A" ip link add vx0 address 02:00:00:fb:00:01 type vxlan id "$VNI" local "$UNDER_A" remote "$UNDER_B" dstport "$dstport" dev veth-a
    in_ns "$NS_B" ip link add vx0 address 02:00:00:fb:00:02 type vxlan id "$VNI" local "$UNDER_B" remote "$UNDER_A" dstport "$dstport" dev veth-b
    # One MTU per frame and real checksums in both captures (no TSO/GSO/GRO, no TX checksum offload).
    in_ns "$NS_A" python3 "$GEN/impair.py" offload-off veth-a vx0
    in_ns "$NS_B" python3 "$GEN/impair.py" offload-off veth-b vx0
    in_ns "$NS_A" ip addr add "$OVER_A/24" dev vx0
    in_ns "$NS_B" ip addr add "$OVER_B/24" dev vx0
    in_ns "$NS_A" ip link set vx0 up
    in_ns "$NS_B" ip link set vx0 up
}

# requests FILE [TSHARK-OPTION...]: the inner HTTP requests as tshark dissects them (frame, method, URI)
requests() {
    local f=$1; shift
    tshark -r "$f" "$@" -Y http.request -T fields -e frame.number -e http.request.method -e http.request.uri 2>/dev/null
}

# verify FILE OVERLAY [TSHARK-OPTION...]: the tunnelled capture must show the overlay's requests in the same
# frames, the same number of frames, and no bad checksum (IPv4, UDP, TCP: outer and inner, all checked)
verify() {
    local file=$1 overlay=$2; shift 2
    local got want nf no bad
    got="$(requests "$OUT/$file" "$@")"
    want="$(requests "$overlay")"
    nf="$(tshark -r "$OUT/$file" 2>/dev/null | wc -l)"
    no="$(tshark -r "$overlay" 2>/dev/null | wc -l)"
    bad="$(tshark -r "$OUT/$file" "$@" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE -o tcp.check_checksum:TRUE \
        -Y 'ip.checksum.status == 0 || udp.checksum.status == 0 || tcp.checksum.status == 0' 2>/dev/null | wc -l)"
    if [ "$got" = "$want" ] && [ "$nf" = "$no" ] && [ "$bad" = 0 ]; then
        echo "   ok: $nf frames; inner requests as in the overlay capture (frames $(echo "$got" | cut -f1 | tr '\n' ' ')); no bad checksum"
    else
        echo "   MISMATCH in $file: $nf frames (overlay $no), $bad bad checksums; requests:" >&2
        diff <(echo "$want") <(echo "$got") >&2 || true
        FAILED+=("$file")
    fi
}

# listing FILE [TSHARK-OPTION...]: wire/FILE.txt = describe.py's exchanges (as for every capture) + the
# per-frame tunnel listing (encap.py list)
listing() {
    local file=$1; shift
    mkdir -p "$GEN/wire"
    {
        (cd "$OUT" && "$PY" "$GEN/py/describe.py" "$file")
        (cd "$OUT" && "$TPY" "$GEN/py/encap.py" list "$file" "$@")
    } >"$GEN/wire/$file.txt"
}

# capture_vxlan FILE PORT DSTPORT CLIENT-CMD...: the real VXLAN capture (underlay) and, at the same time,
# the overlay capture SCRATCH/FILE.overlay.pcap
capture_vxlan() {
    local file=$1 port=$2 dstport=$3; shift 3
    local client=("$@") tmp="$SCRATCH/$file.d"
    mkdir -p "$tmp"
    echo "== $file (VXLAN VNI $VNI, udp port $dstport; overlay port $port)"
    make_path "$dstport"

    ip netns exec "$NS_B" "$PY" "$GEN/py/mcp_sample.py" server --host "$OVER_B" --port "$port" --json-first 3 \
        >"$tmp/server.log" 2>&1 &
    local server_pid=$!
    PIDS+=("$server_pid")
    wait_port "$port"   # also resolves the overlay ARP before the captures start

    rm -f "$OUT/$file"
    ip netns exec "$NS_A" tcpdump -i veth-a -s 0 -U -Z root -w "$OUT/$file" "udp port $dstport" 2>"$tmp/under.log" &
    local under_pid=$!
    PIDS+=("$under_pid")
    ip netns exec "$NS_A" tcpdump -i vx0 -s 0 -U -Z root -w "$SCRATCH/$file.overlay.pcap" "tcp port $port" \
        2>"$tmp/over.log" &
    local over_pid=$!
    PIDS+=("$over_pid")
    wait_capturing "$tmp/under.log"
    wait_capturing "$tmp/over.log"

    local rc=0
    in_ns "$NS_A" timeout 60 "${client[@]}" >"$tmp/client.log" 2>&1 || rc=$?
    sed 's/^/   client: /' "$tmp/client.log"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$file"); }
    sleep 1

    kill -INT "$under_pid" "$over_pid"; wait "$under_pid" || true; wait "$over_pid" || true
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    PIDS=()
    grep -E 'packets captured|dropped by kernel' "$tmp/under.log" | sed 's/^/   underlay: /' || true
    grep -E 'packets captured' "$tmp/over.log" | sed 's/^/   overlay: /' || true
    chmod 644 "$OUT/$file"
    cleanup
}

# same FILE: quiet check that the VXLAN capture carries exactly the overlay capture's frames, in the same
# order (encap.py same); its summary line is in SAME_OUT
same() {
    SAME_OUT="$("$TPY" "$GEN/py/encap.py" same "$OUT/$1" "$SCRATCH/$1.overlay.pcap" 2>&1)"
}

# vxlan FILE PORT DSTPORT CLIENT-CMD...: capture_vxlan, then the checks. A run is captured again (at most 3
# runs) when the two capture points saw two frames of concurrent connections in a different order, or when
# tshark does not show all 9 requests as HTTP (an ephemeral client port it gives another dissector, e.g. 57000,
# which Wireshark registers for IRC).
vxlan() {
    local file=$1 port=$2 dstport=$3; shift 3
    local opts=() attempt n
    [ "$dstport" = 4789 ] || opts=(-d "udp.port==$dstport,vxlan")
    for attempt in 1 2 3; do
        capture_vxlan "$file" "$port" "$dstport" "$@"
        n="$(requests "$OUT/$file" "${opts[@]}" | wc -l)"
        if same "$file" && [ "$n" = 9 ]; then
            echo "   ok: decapsulated, $SAME_OUT"
            break
        fi
        echo "   run $attempt: $SAME_OUT; $n requests shown as HTTP by tshark" >&2
        [ "$attempt" = 3 ] && { FAILED+=("$file"); break; }
        echo "   capturing again" >&2
    done
    verify "$file" "$SCRATCH/$file.overlay.pcap" "${opts[@]}"
    if [ "$dstport" = 4789 ]; then
        check "$file" "$DOWNGRADE"
        listing "$file"
    else
        WIRESHARK_CONFIG_DIR="$SCRATCH/ws-decode-as" check "$file" "$DOWNGRADE"
        WIRESHARK_CONFIG_DIR="$SCRATCH/ws-decode-as" listing "$file" "${opts[@]}"
    fi
}

# encapsulated KIND FILE: py/encap.py KIND around the tunnel-vxlan overlay capture (made first if missing)
encapsulated() {
    local kind=$1 file=$2 overlay="$SCRATCH/tunnel-vxlan.pcap.overlay.pcap"
    [ -f "$overlay" ] || run_scenario tunnel-vxlan
    echo "== $file (py/encap.py $kind, from the tunnel-vxlan overlay capture)"
    "$TPY" "$GEN/py/encap.py" "$kind" "$overlay" "$OUT/$file"
    chmod 644 "$OUT/$file"
    verify "$file" "$overlay"
    check "$file" "$DOWNGRADE"
    listing "$file"
}

FAILED=()
DOWNGRADE="json 202 json json sse sse sse"   # as downgrade.pcap: the gateway rewrites the first 3 replies to JSON
url() { echo "http://$OVER_B:$1/mcp"; }

run_scenario() {
    case "$1" in
    tunnel-vxlan)      vxlan tunnel-vxlan.pcap      19481 4789 "$PY" "$GEN/py/mcp_sample.py" client --url "$(url 19481)" ;;
    tunnel-vxlan-8472) vxlan tunnel-vxlan-8472.pcap 19482 8472 node "$TS/client.mjs" "$(url 19482)" ;;
    tunnel-geneve)     encapsulated geneve  tunnel-geneve.pcap ;;
    tunnel-gre)        encapsulated gre     tunnel-gre.pcap ;;
    tunnel-erspan2)    encapsulated erspan2 tunnel-erspan2.pcap ;;
    tunnel-erspan3)    encapsulated erspan3 tunnel-erspan3.pcap ;;
    tunnel-ipip)       encapsulated ipip    tunnel-ipip.pcap ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(tunnel-vxlan tunnel-vxlan-8472 tunnel-geneve tunnel-gre tunnel-erspan2 tunnel-erspan3 tunnel-ipip)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
ls -l "$OUT"/tunnel-*.pcap 2>/dev/null || true
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

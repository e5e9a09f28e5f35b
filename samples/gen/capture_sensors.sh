#!/usr/bin/env bash
# Capture the headline MCP sessions the way a sensor on a container host captures them: samples/sensors-*.
#
#   sudo bash samples/gen/capture_sensors.sh                  # all six captures (about 30 s)
#   sudo bash samples/gen/capture_sensors.sh sensors-any      # only the named capture(s) (file name without extension)
#
# Three network namespaces of our own, shaped like a Docker/Kubernetes node: a "host" namespace holding a Linux
# bridge (docker0 / cni0), and a "client" and a "server" namespace (the containers) plugged into it with veth pairs:
#
#   mcps-client                      mcps-host                                 mcps-server
#   eth0 172.31.250.2/24 ==== veth-c -+- br0 172.31.250.1/24 -+- veth-s ==== eth0 172.31.250.3/24
#
# Every capture runs in mcps-host, where a node's sensor runs:
#   sensors-any.pcap            tcpdump -i any (LINUX_SLL2): every packet on every interface that saw it
#   sensors-br0.pcap            tcpdump -i br0: one copy of each packet (the control)
#   sensors-dumpcap.pcapng      dumpcap -i veth-c -i veth-s: a pcapng with two interface blocks
#   sensors-snap200.pcap        tcpdump -i br0 -s 200: every frame cut to 200 bytes
#   sensors-dnat.pcap           tcpdump -i any, the server published on 172.31.250.1:19484 with nftables DNAT to
#                               172.31.250.3:19485 (docker run -p 19484:19485; masquerade for the hairpin)
#   sensors-json-clean-any.pcap tcpdump -i any, the clean JSON scenario (nothing may fire)
# The downgrade scenario of capture_all.sh (Python server behind the JSON-first gateway, --json-first 3, Python
# client) runs in all but the last.
#
# Needs root, ip (iproute2), tcpdump, dumpcap and tshark, python3, nft (nftables, for sensors-dnat only: skipped
# with a message when the kernel refuses `nft add table ip nat`); the SDK as in capture_all.sh (samples/gen/.venv).
# The addresses exist only inside the three namespaces, which are made fresh for every capture and deleted on
# exit; every run is bounded (client timeout 60 s, every wait bounded).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NS_H=mcps-host NS_C=mcps-client NS_S=mcps-server
BR_IP=172.31.250.1 C_IP=172.31.250.2 S_IP=172.31.250.3
HOST=$S_IP PROBE_NS=$NS_C  # lib.sh: wait_port probes the server from the client namespace

# ---------------------------------------------------------------- setup
if [ ! -x "$PY" ]; then
    python3 -m venv "$GEN/.venv"
    "$GEN/.venv/bin/pip" install --quiet -r "$GEN/requirements.txt"
fi
for tool in ip tcpdump dumpcap tshark; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install -y iproute2 tcpdump tshark)" >&2; exit 1; }
done

SCRATCH="$(mktemp -d)"
PIDS=()
cleanup() {
    local p
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    PIDS=()
    for ns in "$NS_C" "$NS_S" "$NS_H"; do ip netns del "$ns" 2>/dev/null || true; done
}
trap 'cleanup; [ -n "${KEEP_SCRATCH:-}" ] && echo "scratch kept in $SCRATCH" || rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM

in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# make_node: the three namespaces, fresh for every capture (no ARP, FDB, conntrack or TCP state carried over)
make_node() {
    cleanup
    for ns in "$NS_H" "$NS_C" "$NS_S"; do
        ip netns add "$ns"
        # IPv4 only: no router solicitations, DAD or MLD noise on the bridge
        in_ns "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
        in_ns "$ns" ip link set lo up
    done
    # fixed, locally administered MACs, so every run shows the same addresses; STP off, no forward delay
    in_ns "$NS_H" ip link add br0 address 02:00:00:fc:00:01 type bridge stp_state 0 forward_delay 0
    ip link add veth-c netns "$NS_H" address 02:00:00:fc:01:02 type veth peer name eth0 netns "$NS_C" address 02:00:00:fc:00:02
    ip link add veth-s netns "$NS_H" address 02:00:00:fc:01:03 type veth peer name eth0 netns "$NS_S" address 02:00:00:fc:00:03
    in_ns "$NS_H" ip link set veth-c master br0
    in_ns "$NS_H" ip link set veth-s master br0
    # One MTU per frame and real checksums in every capture (no TSO/GSO/GRO, no TX checksum offload).
    in_ns "$NS_H" python3 "$GEN/impair.py" offload-off br0 veth-c veth-s
    in_ns "$NS_C" python3 "$GEN/impair.py" offload-off eth0
    in_ns "$NS_S" python3 "$GEN/impair.py" offload-off eth0
    in_ns "$NS_H" ip addr add "$BR_IP/24" dev br0
    in_ns "$NS_C" ip addr add "$C_IP/24" dev eth0
    in_ns "$NS_S" ip addr add "$S_IP/24" dev eth0
    for dev in br0 veth-c veth-s; do in_ns "$NS_H" ip link set "$dev" up; done
    in_ns "$NS_C" ip link set eth0 up
    in_ns "$NS_S" ip link set eth0 up
    in_ns "$NS_C" ip route add default via "$BR_IP"
    in_ns "$NS_S" ip route add default via "$BR_IP"
}

# publish PUBLIC-PORT SERVER-PORT: docker run -p, in nftables: DNAT of BR_IP:PUBLIC-PORT to S_IP:SERVER-PORT in
# prerouting, and masquerade of the hairpinned connection (the client is on the same bridge, so without it the
# server would answer the client directly and the client would reset the reply)
nat_works() {
    command -v nft >/dev/null || return 1
    in_ns "$NS_H" nft add table ip nat 2>/dev/null || return 1
    in_ns "$NS_H" nft delete table ip nat
}
publish() {
    local pub=$1 port=$2
    in_ns "$NS_H" sysctl -qw net.ipv4.ip_forward=1
    in_ns "$NS_H" nft -f - <<NFT
table ip nat {
    chain prerouting {
        type nat hook prerouting priority dstnat; policy accept;
        ip daddr $BR_IP tcp dport $pub dnat to $S_IP:$port
    }
    chain postrouting {
        type nat hook postrouting priority srcnat; policy accept;
        ip saddr 172.31.250.0/24 ip daddr $S_IP tcp dport $port masquerade
    }
}
NFT
}

# sensor FILE KIND PORT FILTER SERVER-ARGS... -- CLIENT-URL
#   KIND: any (tcpdump -i any, LINUX_SLL2, tcpdump 4.99's default), br0 (tcpdump -i br0), snap200 (tcpdump -i br0
#   -s 200), dumpcap (dumpcap -i veth-c -i veth-s, pcapng). Every capture runs in NS_H.
sensor() {
    local file=$1 kind=$2 port=$3 filter=$4; shift 4
    local server=() url tmp="$SCRATCH/$file.d"
    while [ "$1" != "--" ]; do server+=("$1"); shift; done
    url=$2
    mkdir -p "$tmp"
    echo "== $file ($kind, $filter)"

    ip netns exec "$NS_S" "$PY" "$GEN/py/mcp_sample.py" server --host "$S_IP" --port "$port" "${server[@]}" \
        >"$tmp/server.log" 2>&1 &
    local server_pid=$!
    PIDS+=("$server_pid")
    wait_port "$port"   # also resolves ARP on the bridge before the capture starts
    [ "$PUBLISHED" = "" ] || HOST=$BR_IP wait_port "$PUBLISHED"

    rm -f "$OUT/$file"
    case "$kind" in
        any)     ip netns exec "$NS_H" tcpdump -i any -s 0 -U -Z root -w "$OUT/$file" "$filter" 2>"$tmp/cap.log" & ;;
        br0)     ip netns exec "$NS_H" tcpdump -i br0 -s 0 -U -Z root -w "$OUT/$file" "$filter" 2>"$tmp/cap.log" & ;;
        snap200) ip netns exec "$NS_H" tcpdump -i br0 -s 200 -U -Z root -w "$OUT/$file" "$filter" 2>"$tmp/cap.log" & ;;
        dumpcap) ip netns exec "$NS_H" dumpcap -i veth-c -f "$filter" -i veth-s -f "$filter" -w "$OUT/$file" 2>"$tmp/cap.log" & ;;
        *) echo "unknown kind $kind" >&2; exit 1 ;;
    esac
    local cap_pid=$!
    PIDS+=("$cap_pid")
    wait_capturing "$tmp/cap.log"

    local rc=0
    in_ns "$NS_C" timeout 60 "$PY" "$GEN/py/mcp_sample.py" client --url "$url" >"$tmp/client.log" 2>&1 || rc=$?
    sed 's/^/   client: /' "$tmp/client.log"
    [ "$rc" -eq 0 ] || { echo "   client exited with $rc" >&2; FAILED+=("$file"); }
    sleep 1

    kill -INT "$cap_pid"; wait "$cap_pid" || true
    kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
    PIDS=()
    grep -E 'packets captured|dropped by kernel|Packets captured|Packets received' "$tmp/cap.log" | sed 's/^/   /' || true
    chmod 644 "$OUT/$file"
    # which interface index is which (the listing's "if" column for SLL2 captures), while the namespace exists
    in_ns "$NS_H" ip -o link show | awk '{sub(":", "", $1); sub(":", "", $2); sub("@.*", "", $2); print "#   ifindex " $1 " = " $2}' \
        >"$tmp/ifindex.txt"
    cleanup
}

# frames FILE: one line per frame, from tshark (Wireshark's frame numbers): interface (pcapng interface block, or
# SLL2 interface index and packet type), wire length / captured length, the TCP 4-tuple, flags, relative
# sequence number and payload length, and the HTTP request or status line tshark shows in that frame
frames() {
    tshark -r "$1" -o tcp.desegment_tcp_streams:FALSE -T fields -E separator=/t \
        -e frame.number -e frame.interface_name -e sll.ifindex -e sll.pkttype -e frame.len -e frame.cap_len \
        -e ip.src -e tcp.srcport -e ip.dst -e tcp.dstport -e tcp.stream -e tcp.flags.str -e tcp.seq -e tcp.len \
        -e http.request.method -e http.response.code 2>/dev/null |
    awk -F'\t' '{
        iface = ($2 != "") ? "if=" $2 : (($3 != "") ? "ifindex=" $3 " pkttype=" $4 : "")
        printf "%4s %-18s len=%-4s cap=%-4s %s:%s > %s:%s conn=%s %s seq=%s tcplen=%s %s%s\n",
            $1, iface, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 }' |
    sed 's/ *$//'
}

# listing FILE PORT [describe]: wire/FILE.txt = the interface map, the bytes cut by the snap length (PORT: the
# server's port, for the direction), describe.py's exchanges (when the capture is whole:
# describe.py rebuilds each direction from the payload bytes, and copies of a segment add nothing), then the
# per-frame listing
listing() {
    local file=$1 desc=${3:-}
    mkdir -p "$GEN/wire"
    {
        echo "# $file: $(tshark -r "$OUT/$file" 2>/dev/null | wc -l) frames"
        cat "$SCRATCH/$file.d/ifindex.txt"
        tshark -r "$OUT/$file" -T fields -e frame.len -e frame.cap_len -e tcp.srcport 2>/dev/null |
            awk -v port="$2" '$1 > $2 { n++; cut += $1 - $2; if ($3 ~ ("^(" port ")$")) s += $1 - $2; else c += $1 - $2 }
                END { printf "# %d frames cut by the snap length: %d bytes missing (client to server %d, server to client %d)\n", n, cut, c, s }'
        if [ "$desc" = describe ]; then
            (cd "$OUT" && "$PY" "$GEN/py/describe.py" "$file")
        fi
        echo
        echo "# frames (tshark; relative sequence numbers)"
        frames "$OUT/$file"
    } >"$GEN/wire/$file.txt"
}

FAILED=()
PUBLISHED=""
DOWNGRADE="json 202 json json sse sse sse"   # as downgrade.pcap: the gateway rewrites the first 3 replies to JSON
CLEAN_JSON="json 202 json json json json json"
url() { echo "http://$1:$2/mcp"; }

run_scenario() {
    PUBLISHED=""
    case "$1" in
    sensors-any)
        make_node
        sensor sensors-any.pcap any 19480 "tcp port 19480" --json-first 3 -- "$(url "$S_IP" 19480)"
        check_posts sensors-any.pcap "$DOWNGRADE"; listing sensors-any.pcap 19480 describe ;;
    sensors-br0)
        make_node
        sensor sensors-br0.pcap br0 19481 "tcp port 19481" --json-first 3 -- "$(url "$S_IP" 19481)"
        check_posts sensors-br0.pcap "$DOWNGRADE"; listing sensors-br0.pcap 19481 describe ;;
    sensors-dumpcap)
        make_node
        sensor sensors-dumpcap.pcapng dumpcap 19482 "tcp port 19482" --json-first 3 -- "$(url "$S_IP" 19482)"
        check_posts sensors-dumpcap.pcapng "$DOWNGRADE"; listing sensors-dumpcap.pcapng 19482 describe ;;
    sensors-snap200)
        # describe.py cannot rebuild cut payloads: the per-frame listing only
        make_node
        sensor sensors-snap200.pcap snap200 19483 "tcp port 19483" --json-first 3 -- "$(url "$S_IP" 19483)"
        listing sensors-snap200.pcap 19483 ;;
    sensors-dnat)
        make_node
        if ! nat_works; then
            echo "== sensors-dnat: SKIPPED: no NAT here (nft add table ip nat failed, or nft is missing: apt-get install -y nftables)" >&2
            cleanup; return 0
        fi
        publish 19484 19485
        PUBLISHED=19484
        sensor sensors-dnat.pcap any 19485 "tcp port 19484 or tcp port 19485" --json-first 3 -- "$(url "$BR_IP" 19484)"
        listing sensors-dnat.pcap "19484|19485" describe ;;
    sensors-json-clean-any)
        make_node
        sensor sensors-json-clean-any.pcap any 19486 "tcp port 19486" --json -- "$(url "$S_IP" 19486)"
        check_posts sensors-json-clean-any.pcap "$CLEAN_JSON"; listing sensors-json-clean-any.pcap 19486 describe ;;
    *) echo "unknown scenario $1" >&2; exit 1 ;;
    esac
}

ALL=(sensors-any sensors-br0 sensors-dumpcap sensors-snap200 sensors-dnat sensors-json-clean-any)
for s in "${@:-${ALL[@]}}"; do
    run_scenario "$s"
done
ls -l "$OUT"/sensors-* 2>/dev/null || true
if [ "${#FAILED[@]}" -gt 0 ]; then
    echo "FAILED: ${FAILED[*]}" >&2
    exit 1
fi

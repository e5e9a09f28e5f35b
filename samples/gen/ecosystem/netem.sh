#!/usr/bin/env bash
# mcptap ecosystem corpus, group "netem": real MCP traffic (the official Python SDK, mcp 2.3.0, netem/server.py and
# netem/client.py) through a real impaired network made by the KERNEL, not by a userspace relay: three network
# namespaces this script creates and deletes, client nm-cli (10.79.1.1, veth nmc0) -- router nm-rtr (nmc1 10.79.1.254,
# nms1 10.79.2.254, forwarding) -- server nm-srv (10.79.2.2, veth nms0). Checksum offload, TSO, GSO and GRO are off on
# every veth (ethtool -K) so the captures hold the real segments with their real checksums.
#
# This machine's kernel has no netem (CONFIG_NET_SCH_NETEM is not set and it loads no modules: `tc qdisc ... netem`
# answers "Specified qdisc kind is unknown"), so the impairments are made with what it has: nftables rules in the
# router's forward hook (numgen random ... drop, dup to), the interfaces' MTU, and `ip link set down/up`.
#   loss          2% of forwarded TCP packets dropped, each direction (nft numgen random mod 1000 < 20 drop)
#   loss-client   the same session and impairment, captured at the same time on the CLIENT's veth (the other end)
#   dup           5% of forwarded TCP packets duplicated, each direction (nft dup to <dst> device <out>); captured on
#                 both ends at once (dup-client: the duplicates of the server's segments only reach the client's side)
#   corrupt       2% of forwarded TCP packets over 300 bytes get one payload byte overwritten (nft raw payload set
#                 @th,400,8 set 0x5a, checksum left wrong), each direction; captured on both ends at once (corrupt-client)
#   mtu1280       the router's client-facing veth at MTU 1280 (both endpoints at 1500, MSS 1460): the server's full
#                 segments meet an ICMP fragmentation-needed (PMTU discovery), big tool results
#   linkdown8     the router's client-facing veth down 8 s mid-call (2 s after the client starts, during slow(5))
#   linkdown40    the same, down 40 s
# Ports (servers): 20790 loss/loss-client, 20791 dup, 20792 mtu1280, 20793 linkdown8, 20794 linkdown40, 20795 corrupt.
# Every capture is taken on the server's veth in the server's namespace (tcpdump -i nms0 -B 16384, filter the port
# and icmp), except loss-client (-i nmc0 in the client's namespace); tcpdump's "0 packets dropped by kernel" is shown.
#
#   sudo bash samples/gen/ecosystem/netem.sh             # every scenario
#   sudo bash samples/gen/ecosystem/netem.sh SCENARIO..  # some of them (loss, dup, corrupt make their -client capture too)
#
# Captures samples/ecosystem/netem-<scenario>.pcap, listings samples/gen/wire/ecosystem/netem-<scenario>.pcap.txt
# (../agents/wire.py - PORT). Each client run is bounded (timeout); every process is stopped and every namespace
# deleted after its scenario; a guard capture on every interface of the root namespace (lib.sh guard_start/guard_stop)
# records whatever else left 127.0.0.1 (the namespaces have no route out: their only links are these veths).
#
# Needs root, tcpdump, tshark, ip/ss (iproute2), nft (nftables 1.0.6), ethtool (Debian 12 packages). First use makes
# netem/.venv from netem/requirements.txt (mcp 2.3.0). Results and labels: samples/ecosystem/netem.md,
# samples/ecosystem/labels-netem.tsv.
set -euo pipefail

HOST=10.79.2.2
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/netem"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=netem
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

PY="$W/.venv/bin/python"
setup() { need_venv "$W/.venv" "$W/requirements.txt"; }

NSS=(nm-cli nm-rtr nm-srv)
NS_PREFIX=nm
NS_NET=10.79
PEERS="$W"
CLIENT_TIMEOUT=60
# shellcheck source=netns.sh
. "$ECO/netns.sh"

# link_flap SECONDS-BEFORE SECONDS-DOWN: the router's client-facing veth down, later up (in the background).
link_flap() { (sleep "$1"; ip -n nm-rtr link set nmc1 down; echo "   link down $(date +%T.%N | cut -c1-12)";
               sleep "$2"; ip -n nm-rtr link set nmc1 up; echo "   link up $(date +%T.%N | cut -c1-12)") &
               FLAP_PID=$!; }

# --------------------------------------------------------------------------------------------- scenarios
scenario_loss() {
    local name=loss port=20790
    begin "$name" "$port"
    nft_router "meta l4proto tcp numgen random mod 1000 < 20 drop"
    ns_capture_start loss nm-srv nms0 "$port"
    ns_capture_start loss-client nm-cli nmc0 "$port"
    client "$name" "$port"
    finish "$name"
}
scenario_loss-client() { scenario_loss; }
scenario_dup() {
    local name=dup port=20791
    begin "$name" "$port"
    nft_router "ip daddr 10.79.2.2 meta l4proto tcp numgen random mod 100 < 5 dup to 10.79.2.2 device nms1" \
               "ip daddr 10.79.1.1 meta l4proto tcp numgen random mod 100 < 5 dup to 10.79.1.1 device nmc1"
    ns_capture_start "$name" nm-srv nms0 "$port"
    ns_capture_start "$name-client" nm-cli nmc0 "$port"
    client "$name" "$port"
    finish "$name"
}
scenario_dup-client() { scenario_dup; }
scenario_corrupt() {
    local name=corrupt port=20795
    begin "$name" "$port"
    # one byte of the TCP payload (bits 400-407 from the TCP header's start: payload byte 18 with the 32-byte header of
    # timestamps) overwritten with 0x5a in 2% of forwarded TCP packets over 300 bytes; a raw payload write, so the
    # TCP checksum is left as it was (wrong): the receiver drops the segment and the sender retransmits
    nft_router "meta l4proto tcp ip length > 300 numgen random mod 100 < 2 @th,400,8 set 0x5a"
    ns_capture_start "$name" nm-srv nms0 "$port"
    ns_capture_start "$name-client" nm-cli nmc0 "$port"
    client "$name" "$port"
    finish "$name"
}
scenario_corrupt-client() { scenario_corrupt; }
scenario_mtu1280() {
    local name=mtu1280 port=20792
    begin "$name" "$port"
    ip -n nm-rtr link set nmc1 mtu 1280
    ns_capture_start "$name" nm-srv nms0 "$port"
    client "$name" "$port"
    finish "$name"
}
linkdown() {
    local name=$1 port=$2 secs=$3
    begin "$name" "$port"
    ns_capture_start "$name" nm-srv nms0 "$port"
    link_flap 2 "$secs"
    client "$name" "$port" 150
    wait "$FLAP_PID" || true   # the flap's subshell
    finish "$name"
}
scenario_linkdown8() { linkdown linkdown8 20793 8; }
scenario_linkdown40() { linkdown linkdown40 20794 40; }

ALL=(loss dup corrupt mtu1280 linkdown8 linkdown40)

run_scenarios "tcpdump tshark ss ip nft ethtool" -- "$@"

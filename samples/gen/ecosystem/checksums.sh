#!/usr/bin/env bash
# mcptap ecosystem corpus, group "checksums": how a passive analyzer copes with TCP checksums. Real MCP sessions of the
# netem group's peers (the official Python SDK, mcp 2.3.0: netem/server.py and netem/client.py, reused by path with
# netem's venv) through three network namespaces this script creates and deletes, client ck-cli (10.80.1.1, veth ckc0)
# -- router ck-rtr (ckc1 10.80.1.254, cks1 10.80.2.254, forwarding) -- server ck-srv (10.80.2.2, veth cks0). Every
# scenario is captured on BOTH ends at once: the server's veth (cks0, in ck-srv) -> checksums-<scenario>.pcap and the
# client's veth (ckc0, in ck-cli) -> checksums-<scenario>-client.pcap.
#
# Two kinds of "bad checksum" in a capture:
#   - a segment CORRUPTED ON THE PATH (nftables raw payload writes in the router's forward hook: the bytes change, the
#     TCP checksum is left as it was, so it is wrong): the receiving kernel discards it and the sender retransmits the
#     valid copy. Such segments are on the receiver's capture only (the sender's capture holds the good original).
#   - a segment whose checksum is wrong ONLY IN THE CAPTURE (checksum offload: the sending kernel leaves the
#     pseudo-header sum in the field for the "hardware" to finish; GRO: received segments merged into one super-packet
#     before the capture point). Nothing was damaged; the receiver accepted every byte.
# Scenarios (server ports; every one runs one client session and writes both captures):
#   status   20870  the router overwrites the first status digit of about half (numgen random mod 2) of the server's
#                   segments whose TCP payload begins with `HTTP/1.1 2` (a 32-byte TCP header: tcp doff 8, payload at
#                   @th,256; digit at @th,328,8 set 0x35): 200 -> 500, 202 -> 502, checksum left wrong. The client's
#                   kernel discards them; the server retransmits (each retransmission is again matched at 50%).
#   status503 20874 the same match, but the three status digits overwritten with `503` (@th,328,24 set 0x353033):
#                   several 503s within seconds on the client's capture, none of which the client accepted (a false
#                   MCP-5XX-CASCADE for an analyzer that takes the damaged copies).
#   status400 20875 the same match, but EVERY response head damaged exactly once, its first copy only, to `400`
#                   (@th,328,24 set 0x343030): a dynamic set `seen` (ip daddr . tcp dport . tcp sequence) remembers
#                   the heads already damaged, so each resent copy passes untouched (about one RTO, 0.2 s, later).
#                   Except the 202: `202` -> `400` leaves the one's-complement sum unchanged (+2 in one 16-bit word,
#                   -2 in the next), so that damaged copy has a RIGHT checksum and the client accepts a real 400.
#   body     20871  bytes overwritten (0x5a) inside bodies in both directions: every TCP segment over 300 bytes (IP
#                   length) at 5% for payload byte 18 and 5% for payload byte 200; the client's smaller segments (IP
#                   length 121-300: JSON-RPC request bodies, which are never over 300) at 25% for payload byte 25
#                   (the client sends only ~12 bodies: 5% would hit none).
#   offload  20872  no corruption: the server's veth cks0 with tx checksum offload, TSO and GSO ON, the client's veth
#                   ckc0 with GRO ON (ethtool -K); the router's veths and everything else as in the other scenarios.
#   fin      20873  the server's end-of-response segments: its 5-byte `0\r\n\r\n` segments (the chunked bodies' 0-chunk)
#                   get their first byte overwritten with `Z` and its FINs get their TCP window field overwritten
#                   (@th,112,16 set 0x0101), each at 50% (retransmissions again at 50%), checksum left wrong.
# Outside the offload scenario checksum offload, TSO, GSO and GRO are off on every veth (ethtool -K), as in netem, so
# the captures hold the real segments with their real checksums.
#
#   sudo bash samples/gen/ecosystem/checksums.sh             # every scenario
#   sudo bash samples/gen/ecosystem/checksums.sh SCENARIO..  # some of them (status status503 status400 body offload fin)
#
# Captures samples/ecosystem/checksums-<scenario>.pcap and checksums-<scenario>-client.pcap, listings
# samples/gen/wire/ecosystem/checksums-<scenario>[-client].pcap.txt (agents/wire.py - PORT). Each client run is bounded
# (timeout 90); every process is stopped and every namespace deleted after its scenario; a guard capture on every
# interface of the root namespace (lib.sh guard_start/guard_stop) records whatever else left 127.0.0.1 (the namespaces
# have no route out: their only links are these veths). Logs in checksums/run/ (git-ignored).
#
# Needs root, tcpdump, tshark, ip/ss (iproute2), nft (nftables 1.0.6), ethtool. Uses netem/.venv (made by netem.sh from
# netem/requirements.txt); if it is missing, makes checksums/.venv from netem/requirements.txt. Results and labels:
# samples/ecosystem/checksums.md, samples/ecosystem/labels-checksums.tsv. Randomness: which segments are corrupted
# changes each run; the labels cite the committed run's frames.
set -euo pipefail

HOST=10.80.2.2
CLI=10.80.1.1
ECO="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # samples/gen/ecosystem
# shellcheck source=../lib.sh
. "$ECO/../lib.sh"
W="$ECO/checksums"
PEERS="$ECO/netem"
CAP="$OUT/ecosystem"
WIRE="$GEN/wire/ecosystem"
RUN="$W/run"
GROUP=checksums
DESCRIBE=()
# shellcheck source=lib.sh
. "$ECO/lib.sh"
mkdir -p "$CAP" "$WIRE" "$RUN"

export DO_NOT_TRACK=1 PYTHONDONTWRITEBYTECODE=1

if [ -x "$PEERS/.venv/bin/python" ]; then VENV="$PEERS/.venv"; else VENV="$W/.venv"; fi
PY="$VENV/bin/python"
setup() { need_venv "$VENV" "$PEERS/requirements.txt"; }

NSS=(ck-cli ck-rtr ck-srv)
NS_PREFIX=ck
NS_NET=10.80
CLIENT_TIMEOUT=90
# shellcheck source=netns.sh
. "$ECO/netns.sh"
# offloads NS DEV: print the veth's checksum/segmentation offload settings
offloads() {
    echo "   $2: $(ip netns exec "$1" ethtool -k "$2" | grep -E '^(tx-checksumming|rx-checksumming|tcp-segmentation-offload|generic-segmentation-offload|generic-receive-offload):' | sed 's/: /=/' | tr '\n' ' ')"
}
# nft_counters: the rules again, with how many packets each matched (counter)
nft_counters() { ip netns exec ck-rtr nft list chain ip ck impair 2>/dev/null | grep counter | sed 's/^\s*/   matched: /' || true; }

# After each capture: how many of its frames have a wrong TCP checksum (tshark).
capture_note() {
    echo "   bad TCP checksums: $(tshark -r "$CAP/$GROUP-$1.pcap" -o tcp.check_checksum:TRUE -Y 'tcp.checksum.status==0' 2>/dev/null | wc -l)"
}
# As each scenario ends: how many packets each router rule matched.
before_stop() { nft_counters; }
both_ends() {  # NAME PORT: capture on both veths, one client session
    ns_capture_start "$1" ck-srv cks0 "$2"
    ns_capture_start "$1-client" ck-cli ckc0 "$2"
    client "$1" "$2"
}

# --------------------------------------------------------------------------------------------- scenarios
scenario_status() {
    local name=status port=20870
    begin "$name" "$port"
    # payload starts `HTTP/1.1 2` (0x485454502f312e312032, 80 bits at @th,256 with the 32-byte header of timestamps);
    # half of them get payload byte 9 (the status' first digit, @th,328,8) set to `5`; checksum left wrong
    nft_router "ip saddr $HOST tcp sport $port tcp doff 8 @th,256,80 0x485454502f312e312032 numgen random mod 2 < 1 counter @th,328,8 set 0x35"
    both_ends "$name" "$port"
    finish "$name"
}
scenario_status503() {
    local name=status503 port=20874
    begin "$name" "$port"
    nft_router "ip saddr $HOST tcp sport $port tcp doff 8 @th,256,80 0x485454502f312e312032 numgen random mod 2 < 1 counter @th,328,24 set 0x353033"
    both_ends "$name" "$port"
    finish "$name"
}
scenario_status400() {
    local name=status400 port=20875 head
    begin "$name" "$port"
    head="ip saddr $HOST tcp sport $port tcp doff 8 @th,256,80 0x485454502f312e312032"
    ip netns exec ck-rtr nft add table ip ck
    ip netns exec ck-rtr nft add set ip ck seen '{ typeof ip daddr . tcp dport . tcp sequence; size 4096; flags dynamic; }'
    nft_router "$head ip daddr . tcp dport . tcp sequence @seen counter accept" \
               "$head add @seen { ip daddr . tcp dport . tcp sequence } counter @th,328,24 set 0x343030"
    both_ends "$name" "$port"
    finish "$name"
}
scenario_body() {
    local name=body port=20871
    begin "$name" "$port"
    nft_router "meta l4proto tcp ip length > 300 numgen random mod 100 < 5 counter @th,400,8 set 0x5a" \
               "meta l4proto tcp ip length > 300 numgen random mod 100 < 5 counter @th,1856,8 set 0x5a" \
               "ip saddr $CLI meta l4proto tcp ip length 121-300 numgen random mod 100 < 25 counter @th,456,8 set 0x5a"
    both_ends "$name" "$port"
    finish "$name"
}
scenario_offload() {
    local name=offload port=20872
    begin "$name" "$port"
    ip netns exec ck-srv ethtool -K cks0 tx on tso on gso on >/dev/null
    ip netns exec ck-cli ethtool -K ckc0 gro on >/dev/null
    offloads ck-srv cks0; offloads ck-rtr cks1; offloads ck-rtr ckc1; offloads ck-cli ckc0
    both_ends "$name" "$port"
    finish "$name"
}
scenario_fin() {
    local name=fin port=20873
    begin "$name" "$port"
    # a 5-byte payload `0\r\n\r\n` (IP length 57, 0x300d0a0d0a): its `0` -> `Z`; a FIN: its window field rewritten
    nft_router "ip saddr $HOST tcp sport $port ip length 57 tcp doff 8 @th,256,40 0x300d0a0d0a numgen random mod 2 < 1 counter @th,256,8 set 0x5a" \
               "ip saddr $HOST tcp sport $port tcp flags & fin == fin numgen random mod 2 < 1 counter @th,112,16 set 0x0101"
    both_ends "$name" "$port"
    finish "$name"
}

ALL=(status status503 status400 body offload fin)

run_scenarios "tcpdump tshark ss ip nft ethtool" -- "$@"

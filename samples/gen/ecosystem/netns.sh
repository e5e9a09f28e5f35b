# mcptap ecosystem corpus: helpers of the groups that run their peers in network namespaces (netem, checksums).
# The topology: three namespaces, NSS=(CLIENT-NS ROUTER-NS SERVER-NS), joined by two veth pairs through the router,
# PREFIXc0 (client) - PREFIXc1 (router) on NET.1.0/24 and PREFIXs0 (server) - PREFIXs1 (router) on NET.2.0/24,
# the client at NET.1.1, the server at NET.2.2, the router at .254 on each; every offload off, so that what each
# end captures is what went on the wire.
# The caller sets NSS, NS_PREFIX and NS_NET (PREFIX and NET above), HOST (the server's address), PY and PEERS (the Python and
# the folder of the netem group's server.py and client.py), CLIENT_TIMEOUT (seconds a client may run), and, before
# a capture stops, CAP, GROUP, RUN, WIRE and DESCRIBE as lib.sh's groups do; wait_capturing, guard_start,
# guard_stop, bg and cleanup come from lib.sh. Hooks the caller may define: capture_note
# NAME, called after each capture is written, and before_stop, called as a scenario ends, before its captures stop.

topo_down() { local n; for n in "${NSS[@]}"; do ip netns del "$n" 2>/dev/null || true; done; }
trap 'cleanup; topo_down; [ -z "$GUARD_PID" ] || kill -INT "$GUARD_PID" 2>/dev/null || true' EXIT
topo_up() {
    local n d p=$NS_PREFIX net=$NS_NET cli=${NSS[0]} rtr=${NSS[1]} srv=${NSS[2]}
    topo_down
    for n in "${NSS[@]}"; do ip netns add "$n"; ip -n "$n" link set lo up; done
    ip link add "${p}c0" netns "$cli" type veth peer name "${p}c1" netns "$rtr"
    ip link add "${p}s0" netns "$srv" type veth peer name "${p}s1" netns "$rtr"
    ip -n "$cli" addr add "$net.1.1/24" dev "${p}c0"
    ip -n "$rtr" addr add "$net.1.254/24" dev "${p}c1"
    ip -n "$rtr" addr add "$net.2.254/24" dev "${p}s1"
    ip -n "$srv" addr add "$net.2.2/24" dev "${p}s0"
    for d in "$cli:${p}c0" "$rtr:${p}c1" "$rtr:${p}s1" "$srv:${p}s0"; do
        ip netns exec "${d%%:*}" ethtool -K "${d#*:}" tx off rx off tso off gso off gro off >/dev/null 2>&1 || true
        ip -n "${d%%:*}" link set "${d#*:}" up
    done
    ip -n "$cli" route add default via "$net.1.254"
    ip -n "$srv" route add default via "$net.2.254"
    ip netns exec "$rtr" sysctl -qw net.ipv4.ip_forward=1
}
# nft_router RULE...: the router's forward chain (table ip PREFIX, chain impair) gets these rules.
nft_router() {
    local r rtr=${NSS[1]} t=$NS_PREFIX
    ip netns exec "$rtr" nft add table ip "$t"
    ip netns exec "$rtr" nft add chain ip "$t" impair '{ type filter hook forward priority 0; policy accept; }'
    # shellcheck disable=SC2086 # a rule is words for nft
    for r in "$@"; do ip netns exec "$rtr" nft add rule ip "$t" impair $r; done
    ip netns exec "$rtr" nft list ruleset | sed 's/^/   nft: /'
}
srv_listening() {
    local i
    for i in $(seq 1 300); do
        [ -n "$(ip netns exec "${NSS[2]}" ss -Hltn "sport = :$1")" ] && return 0
        sleep 0.1
    done
    echo "nothing listens on $HOST:$1" >&2; return 1
}
CAPS=()   # "pid:name" of running captures
ns_capture_start() {  # NAME NS DEV PORT
    local name=$1 ns=$2 dev=$3 port=$4
    rm -f "$CAP/$GROUP-$name.pcap"
    ip netns exec "$ns" tcpdump -i "$dev" -s 0 -U -B 16384 -w "$CAP/$GROUP-$name.pcap" "tcp port $port or icmp" \
        2>"$RUN/tcpdump-$name.log" &
    CAPS+=("$!:$name")
    wait_capturing "$RUN/tcpdump-$name.log"
}
ns_capture_stop() {
    local c pid name
    sleep 1
    for c in "${CAPS[@]}"; do
        pid=${c%%:*}; name=${c#*:}
        kill -INT "$pid"; wait "$pid" 2>/dev/null || true
        chmod 644 "$CAP/$GROUP-$name.pcap"
        (cd "$CAP" && "${DESCRIBE[@]}" "$GROUP-$name.pcap") >"$WIRE/$GROUP-$name.pcap.txt" || true
        echo "   wrote samples/ecosystem/$GROUP-$name.pcap ($(stat -c %s "$CAP/$GROUP-$name.pcap") bytes);" \
            "$(grep -h 'dropped by kernel' "$RUN/tcpdump-$name.log")"
        # A group may say more of each capture it wrote.
        if declare -F capture_note >/dev/null; then capture_note "$name"; fi
    done
    CAPS=()
}

begin() {  # NAME PORT: the namespaces up, the scenario's MCP server listening in the server's
    DESCRIBE=("$PY" "$ECO/agents/wire.py" - "$2")
    guard_start "$1"
    rm -f "$RUN/$1"-*.log
    topo_up
    bg "$1-server" ip netns exec "${NSS[2]}" "$PY" "$PEERS/server.py" "$2" "$GROUP-$1" --event-store --host "$HOST"
    srv_listening "$2"
}
finish() {  # NAME: captures written, everything stopped and torn down, the tail of each peer's log shown
    local name=$1 f
    if declare -F before_stop >/dev/null; then before_stop; fi
    ns_capture_stop
    cleanup
    sleep 1
    topo_down
    guard_stop "$name"
    for f in "$RUN/$name"-*.log; do
        grep -vE '^\s*$' "$f" | cut -c1-160 | tail -6 | sed "s/^/   $(basename "$f" .log): /" || true
    done
}
client() {  # NAME PORT [TIMEOUT]: one client session from the client's namespace
    timeout "${3:-$CLIENT_TIMEOUT}" ip netns exec "${NSS[0]}" "$PY" "$PEERS/client.py" "http://$HOST:$2/mcp" >"$RUN/$1-client.log" 2>&1 \
        || echo "   ($1 client exited with $?)"
}

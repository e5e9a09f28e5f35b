# mcptap ecosystem corpus: helpers of the groups that run their peers in network namespaces (netem, checksums).
# The caller sets NSS=(CLIENT-NS ROUTER-NS SERVER-NS), HOST (the server's address), and, before a capture stops,
# CAP, GROUP, RUN, WIRE and DESCRIBE as lib.sh's groups do; wait_capturing comes from lib.sh. A function
# capture_note NAME, if the caller defines one, is called after each capture is written.

topo_down() { local n; for n in "${NSS[@]}"; do ip netns del "$n" 2>/dev/null || true; done; }
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

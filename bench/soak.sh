#!/usr/bin/env bash
# Soak test of the live sensor (issue 19; a script, not a unit test): replay the benchmark capture onto a
# veth pair between two network namespaces this script creates, at increasing rates, each for DURATION
# seconds (tcpreplay --loop, bounded by --duration), with `mcptap -i` capturing on the other end. Per rate it
# records libpcap's drops (kernel, interface), the rows the live run wrote against `mcptap -r` on the same
# capture (missed incidents, false ones), and peak and final resident memory. Prints a Markdown table.
#
#   sudo bench/soak.sh [CAPTURE]        default: the 1 GiB benchmark capture (bench/run.sh makes it)
#
# Environment: RATES (Mbit/s, space-separated, `top` for --topspeed; default "200 400 800 1000 top"),
# DURATION (seconds per rate, default 600), MTU (default 9000: the capture's frames exceed 1500 bytes, and at
# MTU 1500 tcpreplay silently fails to send some of them), MCPTAP (the live build, default
# target/release/mcptap), SENSOR_ARGS (more flags for the sensor, e.g. "--threads 2"). Needs root, iproute2, tcpreplay, GNU time, python3 (for the row comparison).
# Traffic stays on the veth pair inside the two namespaces; both are deleted on exit.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cap="${1:-$root/target/bench/mcp_1073741824_s42.pcap}"
rates="${RATES:-200 400 800 1000 top}"
duration="${DURATION:-600}"
mtu="${MTU:-9000}"
bin="${MCPTAP:-$root/target/release/mcptap}"
out="$root/target/soak"
ns_cap=mcptap-soak-cap
ns_send=mcptap-soak-send

[[ $(id -u) -eq 0 ]] || { echo "soak: needs root (network namespaces, capture)" >&2; exit 2; }
for t in ip tcpreplay python3; do command -v "$t" >/dev/null || { echo "soak: missing $t" >&2; exit 2; }; done
[[ -x /usr/bin/time ]] || { echo "soak: missing /usr/bin/time (apt-get install time)" >&2; exit 2; }
[[ -f "$cap" ]] || { echo "soak: $cap: no such capture (bench/run.sh generates the benchmark capture)" >&2; exit 2; }
[[ -x "$bin" && -x "$(dirname "$bin")/mcptap-live" ]] || { echo "soak: $bin: build it with cargo build --release --features live" >&2; exit 2; }
mkdir -p "$out"

cleanup() {
    ip netns del "$ns_cap" 2>/dev/null || true
    ip netns del "$ns_send" 2>/dev/null || true
}
trap cleanup EXIT
cleanup
ip netns add "$ns_cap"
ip netns add "$ns_send"
ip link add soak-cap netns "$ns_cap" mtu "$mtu" type veth peer name soak-send netns "$ns_send" mtu "$mtu"
ip -n "$ns_cap" link set soak-cap up
ip -n "$ns_send" link set soak-send up

# The offline verdicts on the same capture: what a perfect sensor writes.
"$bin" -q -r "$cap" -o "$out/offline.csv"

echo "| rate | packets sent | received by filter | dropped by kernel | dropped by interface | medium+ rows | incidents missed | false rows | peak RSS | final RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for rate in $rates; do
    tag="rate-$rate${SENSOR_ARGS:+-$(tr -dc 'a-z0-9' <<<"$SENSOR_ARGS")}"
    rm -f "$out/$tag".*
    ip netns exec "$ns_cap" /usr/bin/time -f "%M" -o "$out/$tag.time" \
        "$bin" -i soak-cap ${SENSOR_ARGS:-} -o "$out/$tag.csv" --stats-interval 10 --stats-file "$out/$tag.stats" 2>"$out/$tag.err" &
    sensor=$!
    for _ in $(seq 100); do grep -q "listening on" "$out/$tag.err" 2>/dev/null && break; sleep 0.1; done
    if [[ $rate == top ]]; then speed=(--topspeed); else speed=(--mbps="$rate"); fi
    # --unique-ip: each loop's flows get other addresses, so a loop is new sessions (replaying the same
    # connections again would be real replays, and mcptap would rightly report them).
    ip netns exec "$ns_send" tcpreplay -q -i soak-send "${speed[@]}" --loop=0 --unique-ip --duration="$duration" "$cap" >"$out/$tag.replay" 2>&1 || true
    sleep 2
    # $sensor is GNU time (ip netns exec execs it), which ignores SIGINT: stop its child, the sensor.
    pkill -INT -P "$sensor" || true
    wait "$sensor" || true
    sent=$(sed -n 's/.*Actual: \([0-9]*\) packets.*/\1/p' "$out/$tag.replay" | tail -1)
    read -r recv kdrop idrop < <(sed -n 's/.*libpcap: *\([0-9]*\) packets received by filter, \([0-9]*\) dropped by kernel, \([0-9]*\) dropped by interface.*/\1 \2 \3/p' "$out/$tag.err" | tail -1)
    peak_kib=$(tail -1 "$out/$tag.time")
    final=$(tail -1 "$out/$tag.stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["rss_bytes"] >> 20)' 2>/dev/null || echo "?")
    # Rows (medium and above) are compared by (rule, session id): each loop replays the capture's sessions
    # on other addresses, so a (rule, session id) the offline run has and no live row has is missed, and a
    # live row whose (rule, session id) the offline run does not have is false. The replay's end cuts the
    # streams open at that moment: those of the last, partial loop can give rows a whole capture does not.
    rows=$(python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r["severity"] in ("medium","high","critical")))' "$out/$tag.csv")
    read -r missed false < <(python3 - "$out/offline.csv" "$out/$tag.csv" <<'PY'
import csv, sys
def keys(p):
    with open(p, newline="") as f:
        return [(r["rule_id"], r["session_id"]) for r in csv.DictReader(f) if r["severity"] in ("medium", "high", "critical")]
offline, live = set(keys(sys.argv[1])), keys(sys.argv[2])
print(len(offline - set(live)), sum(1 for k in live if k not in offline))
PY
)
    echo "| ${rate}$( [[ $rate == top ]] || echo ' Mbit/s') | ${sent:-?} | ${recv:-?} | ${kdrop:-?} | ${idrop:-?} | $rows | $missed | $false | $((peak_kib / 1024)) MiB | $final MiB |"
done

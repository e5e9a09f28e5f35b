#!/usr/bin/env bash
# Benchmark: mcptap's whole analysis against a read-and-decode-only loop and tshark on one synthetic capture.
#
#   bench/run.sh [SIZE_BYTES]        default 1073741824 (1 GiB)
#
# The capture comes from the shared generator ../shared/bench/gen_mcp_pcap.py (next to this repository;
# not copied in) with --seed 42 and is cached in target/bench/. Environment: RUNS (timed runs per tool,
# median reported; default 3), THREADS (passed as --threads N when set), TSHARK=0 to skip tshark,
# TSHARK_MAX_BYTES (skip tshark above this size; default 2 GiB: tshark needs ~1.9 GiB RAM per GiB).
# Exit 1 if mcptap's report disagrees with the generator's ground truth (bench/check.py).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:-1073741824}"
runs="${RUNS:-3}"
gen="$root/../shared/bench/gen_mcp_pcap.py"
out="$root/target/bench"
pcap="$out/mcp_${size}_s42.pcap"

if [[ ! -f "$gen" ]]; then
    echo "bench: generator not found at $gen (expected ../shared/bench/gen_mcp_pcap.py beside the repository)" >&2
    exit 2
fi
[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time (GNU time) is needed for peak RSS" >&2; exit 2; }
mkdir -p "$out"
if [[ ! -f "$pcap" || ! -f "$pcap.truth.csv" ]]; then
    echo "bench: generating $pcap" >&2
    python3 "$gen" --target-bytes "$size" --seed 42 --out "$pcap"
fi
(cd "$root" && cargo build --release --quiet --bin mcptap --example readloop)
bin="$root/target/release/mcptap"
readloop="$root/target/release/examples/readloop"
bytes=$(stat -c %s "$pcap")

# time_it NAME CMD...: runs CMD $runs times; sets secs (median wall) and rss_kib (max peak RSS).
time_it() {
    local name=$1; shift
    local all=() rss=0 i
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e %M" -o "$out/time.$name" "$@"
        read -r s m < "$out/time.$name"
        all+=("$s")
        (( m > rss )) && rss=$m
    done
    secs=$(printf '%s\n' "${all[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    rss_kib=$rss
}

threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")

time_it readloop sh -c "'$readloop' '$pcap' > '$out/readloop.out'"
read_secs=$secs read_rss=$rss_kib
time_it mcptap sh -c "'$bin' -r '$pcap' ${threads[*]:-} -o '$out/report.csv' 2> '$out/summary.txt'"
mcp_secs=$secs mcp_rss=$rss_kib

packets=$(sed -n 's/^  packets: *\([0-9]*\).*/\1/p' "$out/summary.txt")
msgs=$(sed -n 's/^  http: *\([0-9]*\) requests, \([0-9]*\) responses.*/\1 \2/p' "$out/summary.txt" | awk '{print $1+$2}')

tshark_secs="" tshark_rss="" tshark_file=""
if [[ "${TSHARK:-1}" != 0 ]] && command -v tshark > /dev/null && (( bytes <= ${TSHARK_MAX_BYTES:-2147483648} )); then
    # One run: tshark is slow, and its memory grows with the file.
    runs_saved=$runs runs=1
    time_it tshark sh -c "tshark -r '$pcap' -o tcp.desegment_tcp_streams:TRUE -o tcp.reassemble_out_of_order:TRUE \
        -Y http.response -T fields -e http.content_type > '$out/tshark.txt' 2> /dev/null"
    runs=$runs_saved tshark_secs=$secs tshark_rss=$rss_kib tshark_file="$out/tshark.txt"
else
    echo "bench: tshark skipped (not installed, TSHARK=0, or capture above TSHARK_MAX_BYTES)" >&2
fi

row() { # name secs rss_kib
    awk -v n="$1" -v s="$2" -v r="$3" -v b="$bytes" -v p="$packets" -v m="$4" -v ms="$mcp_secs" 'BEGIN {
        if (s <= 0) s = 0.01;
        printf "| %-22s | %8.2f | %9.0f | %11.0f | %10s | %8.0f | %13s |\n", n, s, b / s / 1e6, p / s,
            (m == "" ? "n/a" : sprintf("%.0f", m / s)), r / 1024, sprintf("%.2fx", ms / s) }'
}
echo
echo "capture: $pcap ($bytes bytes, $packets packets, $msgs HTTP messages); median of $runs runs"
echo "| tool                   |    wall s |      MB/s |   packets/s | HTTP msg/s | RSS MiB | mcptap time ÷ |"
echo "|---|---|---|---|---|---|---|"
row "readloop (read+decode)" "$read_secs" "$read_rss" ""
row "mcptap ${threads[*]:-}" "$mcp_secs" "$mcp_rss" "$msgs"
[[ -n "$tshark_secs" ]] && row "tshark" "$tshark_secs" "$tshark_rss" "$msgs"
echo
echo "correctness against $pcap.truth.csv:"
python3 "$root/bench/check.py" "$pcap.truth.csv" "$out/report.csv" "$out/summary.txt" $tshark_file

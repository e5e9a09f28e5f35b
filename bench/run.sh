#!/usr/bin/env bash
# Benchmark: mcptap's whole analysis, on one thread and on two, against a read-and-decode-only loop over the
# same reader and against tshark, on one synthetic capture; then checks the reports against ground truth.
#
#   bench/run.sh [SIZE_BYTES]        default 1073741824 (1 GiB)
#
# The capture comes from bench/gen_mcp_pcap.py (the project's shared generator, vendored) with --seed 42 and
# is cached in target/bench/. Environment: RUNS (timed runs per tool, median reported; default 3), TSHARK=0
# to skip tshark, TSHARK_MAX_BYTES (skip tshark above this size; default 2 GiB: tshark needs ~1.9 GiB RAM
# per GiB of capture).
# Exit 1 if a report disagrees with the generator's ground truth (bench/check.py) or if the --threads 2
# report differs from the single-threaded one by a byte.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:-1073741824}"
runs="${RUNS:-3}"
gen="$root/bench/gen_mcp_pcap.py"
out="$root/target/bench"
pcap="$out/mcp_${size}_s42.pcap"

[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time (GNU time) is needed for peak RSS (apt-get install time)" >&2; exit 2; }
mkdir -p "$out"
if [[ ! -f "$pcap" || ! -f "$pcap.truth.csv" ]]; then
    echo "bench: generating $pcap" >&2
    python3 "$gen" --target-bytes "$size" --seed 42 --out "$pcap" >&2
fi
(cd "$root" && cargo build --release --quiet --bin mcptap --example readloop)
bin="$root/target/release/mcptap"
readloop="$root/target/release/examples/readloop"
bytes=$(stat -c %s "$pcap")

# time_it NAME CMD...: runs CMD $runs times; sets secs (median wall), cpu (median user+sys) and rss_kib
# (max peak RSS). CPU time is reported beside wall time because the machine may be shared: on a busy
# machine wall time measures the neighbours too.
time_it() {
    local name=$1; shift
    local walls=() cpus=() rss=0 i s u y m
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -f "%e %U %S %M" -o "$out/time.$name" "$@"
        read -r s u y m < "$out/time.$name"
        walls+=("$s")
        cpus+=("$(awk -v u="$u" -v y="$y" 'BEGIN { print u + y }')")
        (( m > rss )) && rss=$m
    done
    secs=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    cpu=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    rss_kib=$rss
}

time_it readloop sh -c "'$readloop' '$pcap' > '$out/readloop.out'"
read_secs=$secs read_cpu=$cpu read_rss=$rss_kib
time_it mcptap1 sh -c "'$bin' -r '$pcap' -o '$out/report.csv' 2> '$out/summary.txt'"
mcp_secs=$secs mcp_cpu=$cpu mcp_rss=$rss_kib
time_it mcptap2 sh -c "'$bin' -r '$pcap' --threads 2 -o '$out/report-t2.csv' 2> '$out/summary-t2.txt'"
mcp2_secs=$secs mcp2_cpu=$cpu mcp2_rss=$rss_kib

packets=$(sed -n 's/^  packets: *\([0-9]*\).*/\1/p' "$out/summary.txt")
msgs=$(sed -n 's/^  http: *\([0-9]*\) requests, \([0-9]*\) responses.*/\1 \2/p' "$out/summary.txt" | awk '{print $1+$2}')

tshark_secs="" tshark_cpu="" tshark_rss="" tshark_file=""
if [[ "${TSHARK:-1}" != 0 ]] && command -v tshark > /dev/null && (( bytes <= ${TSHARK_MAX_BYTES:-2147483648} )); then
    # One run: tshark is slow, and its memory grows with the file.
    runs_saved=$runs runs=1
    time_it tshark sh -c "tshark -r '$pcap' -o tcp.desegment_tcp_streams:TRUE -o tcp.reassemble_out_of_order:TRUE \
        -Y http.response -T fields -e http.content_type > '$out/tshark.txt' 2> /dev/null"
    runs=$runs_saved tshark_secs=$secs tshark_cpu=$cpu tshark_rss=$rss_kib tshark_file="$out/tshark.txt"
else
    echo "bench: tshark skipped (not installed, TSHARK=0, or capture above TSHARK_MAX_BYTES)" >&2
fi

row() { # name wall_s cpu_s rss_kib with_msgs
    awk -v n="$1" -v s="$2" -v c="$3" -v r="$4" -v b="$bytes" -v p="$packets" -v m="$5" -v ms="$mcp_secs" 'BEGIN {
        if (s <= 0) s = 0.01; if (c <= 0) c = 0.01;
        printf "| %-24s | %7.2f | %7.2f | %8.0f | %8.0f | %11.0f | %10s | %7.0f | %7s |\n", n, s, c, b / s / 1e6,
            b / c / 1e6, p / s, (m == "" ? "n/a" : sprintf("%.0f", m / s)), r / 1024, sprintf("%.2fx", s / ms) }'
}
echo
echo "capture: $pcap ($bytes bytes, $packets packets, $msgs HTTP messages); median of $runs runs"
echo "machine: $(nproc) CPUs, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run                      |  wall s |   CPU s | MB/s wall | MB/s CPU |   packets/s | HTTP msg/s | RSS MiB | time ÷ mcptap |"
echo "|---|---|---|---|---|---|---|---|---|"
row "readloop (read+decode)" "$read_secs" "$read_cpu" "$read_rss" ""
row "mcptap" "$mcp_secs" "$mcp_cpu" "$mcp_rss" "$msgs"
row "mcptap --threads 2" "$mcp2_secs" "$mcp2_cpu" "$mcp2_rss" "$msgs"
[[ -n "$tshark_secs" ]] && row "tshark" "$tshark_secs" "$tshark_cpu" "$tshark_rss" "$msgs"
echo
awk -v a="$mcp_secs" -v b="$mcp2_secs" 'BEGIN { printf "--threads 2 speed-up over one thread (wall): %.2fx\n", a / b }'
[[ -n "$tshark_secs" ]] && awk -v t="$tshark_secs" -v a="$mcp_secs" -v b="$mcp2_secs" \
    'BEGIN { printf "mcptap speed over tshark (wall, same run): %.1fx on one thread, %.1fx on two\n", t / a, t / b }'
echo
status=0
# The summary's last line is the run's wall time (stderr only), the one line that differs between runs.
same_summary() { cmp -s <(grep -v '^  elapsed:' "$1") <(grep -v '^  elapsed:' "$2"); }
if cmp -s "$out/report.csv" "$out/report-t2.csv" && same_summary "$out/summary.txt" "$out/summary-t2.txt"; then
    echo "--threads 2: report and summary byte-identical to one thread"
else
    echo "--threads 2: REPORT DIFFERS from one thread" && status=1
fi
echo "correctness against $pcap.truth.csv:"
python3 "$root/bench/check.py" "$pcap.truth.csv" "$out/report.csv" "$out/summary.txt" $tshark_file || status=1
exit $status

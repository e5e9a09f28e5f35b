#!/usr/bin/env bash
# Benchmark: mcptap's whole analysis on one thread and on N workers (--threads 2, 4, 8), a baseline build of
# an earlier commit, a read-and-decode-only loop over the same reader, and tshark, all on one synthetic
# capture in one run; then checks every report against ground truth and against the one-thread report.
#
#   bench/run.sh [SIZE_BYTES]        default 1073741824 (1 GiB)
#
# The capture comes from bench/gen_mcp_pcap.py (the project's shared generator, vendored) with --seed 42 and
# is cached in target/bench/. Environment: RUNS (interleaved rounds, each timing every tool once; medians reported; default 3), THREADS
# (worker counts to run besides 1; default "2 4 8"), BASELINE (a git revision built in a temporary worktree
# and timed in the same run, for "x times faster than the earlier binary"; default 5427c80, the last commit
# before the speed work of issue 17; "none" to skip), TSHARK=0 to skip tshark, TSHARK_MAX_BYTES (skip tshark
# above this size; default 2 GiB: tshark needs ~1.9 GiB RAM per GiB of capture), PGO=1 to build the
# profile-guided binary (bench/pgo.sh, trained on another seed) and time it beside the plain release build at
# every N, its reports checked against the plain build's.
# The per-worker CPU times come from the summary's `workers:` line of the last timed run of each N.
# Exit 1 if a report disagrees with the generator's ground truth (bench/check.py) or if any --threads N
# report, summary or session inventory differs from the one-thread one by a byte.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:-1073741824}"
runs="${RUNS:-3}"
gen="$root/bench/gen_mcp_pcap.py"
out="$root/target/bench"
pcap="$out/mcp_${size}_s42.pcap"

[[ -x /usr/bin/time ]] || { echo "bench: /usr/bin/time (GNU time) is needed for peak RSS (apt-get install time)" >&2; exit 2; }
mkdir -p "$out"
# A truth file from before the sse_single column (bench/check.py needs it) is regenerated with its capture.
if [[ ! -f "$pcap" || ! -f "$pcap.truth.csv" ]] || ! head -1 "$pcap.truth.csv" | grep -q sse_single; then
    echo "bench: generating $pcap" >&2
    python3 "$gen" --target-bytes "$size" --seed 42 --out "$pcap" >&2
fi
(cd "$root" && cargo build --release --quiet --bin mcptap --example readloop)
bin="$root/target/release/mcptap"
readloop="$root/target/release/examples/readloop"
bytes=$(stat -c %s "$pcap")
threads="${THREADS:-2 4 8}"
baseline="${BASELINE:-5427c80}"

pgo_bin=""
if [[ "${PGO:-0}" == 1 ]]; then
    "$root/bench/pgo.sh" >&2
    pgo_bin="$root/target/pgo/mcptap"
fi

base_bin=""
if [[ "$baseline" != none ]]; then
    rev=$(cd "$root" && git rev-parse --short "$baseline")
    base_dir="$out/baseline-$rev"
    base_bin="$base_dir/target/release/mcptap"
    if [[ ! -x "$base_bin" ]]; then
        echo "bench: building baseline $rev" >&2
        rm -rf "$base_dir"
        (cd "$root" && git worktree add --detach --force "$base_dir" "$rev" > /dev/null 2>&1) || (cd "$root" && git worktree prune && git worktree add --detach --force "$base_dir" "$rev" > /dev/null)
        (cd "$base_dir" && CARGO_TARGET_DIR="$base_dir/target" cargo build --release --quiet --bin mcptap)
    fi
fi

# The runs are interleaved: round r times every tool once before round r + 1 begins, so that a neighbour's
# load that comes and goes during the benchmark (the machine may be shared) falls on every tool alike
# rather than on whichever ran in that minute. Per tool: median wall, median CPU (user + sys; CPU time is
# reported beside wall time because on a busy machine wall time measures the neighbours too) and max peak
# RSS. The speed-up ratios are also taken round by round (paired) and their median reported.
declare -A walls cpus_all rss_max
time_once() { # NAME CMD...
    local name=$1 s u y m; shift
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.$name" "$@"
    read -r s u y m < "$out/time.$name"
    walls[$name]+="$s "
    cpus_all[$name]+="$(awk -v u="$u" -v y="$y" 'BEGIN { print u + y }') "
    (( m > ${rss_max[$name]:-0} )) && rss_max[$name]=$m
    return 0
}
median() { tr ' ' '\n' <<< "$1" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# paired A B: the median over rounds of (A's wall / B's wall) in the same round.
paired() {
    local ratios
    ratios=$(paste <(tr ' ' '\n' <<< "${walls[$1]}" | grep .) <(tr ' ' '\n' <<< "${walls[$2]}" | grep .) \
        | awk '{ printf "%s ", ($2 > 0 ? $1 / $2 : 0) }')
    printf "%.2f" "$(median "$ratios")"
}

declare -A wall cpus rss busiest reading each
for ((round = 0; round < runs; round++)); do
    time_once readloop sh -c "'$readloop' '$pcap' > '$out/readloop.out'"
    if [[ -n "$base_bin" ]]; then
        time_once baseline sh -c "'$base_bin' -r '$pcap' -o '$out/report-base.csv' 2> '$out/summary-base.txt'"
    fi
    for n in 1 $threads; do
        time_once "t$n" sh -c "'$bin' -r '$pcap' --threads $n -o '$out/report-t$n.csv' 2> '$out/summary-t$n.txt'"
        if [[ -n "$pgo_bin" ]]; then
            time_once "p$n" sh -c "'$pgo_bin' -r '$pcap' --threads $n -o '$out/report-p$n.csv' 2> '$out/summary-p$n.txt'"
        fi
    done
done
read_secs=$(median "${walls[readloop]}") read_cpu=$(median "${cpus_all[readloop]}") read_rss=${rss_max[readloop]}
if [[ -n "$base_bin" ]]; then
    base_secs=$(median "${walls[baseline]}") base_cpu=$(median "${cpus_all[baseline]}") base_rss=${rss_max[baseline]}
fi
for n in 1 $threads; do
    wall[$n]=$(median "${walls[t$n]}") cpus[$n]=$(median "${cpus_all[t$n]}") rss[$n]=${rss_max[t$n]}
    line=$(grep '^  workers:' "$out/summary-t$n.txt" || true)
    busiest[$n]=$(sed -n 's/.*(busiest \([0-9.?]*\)).*/\1/p' <<< "$line")
    reading[$n]=$(sed -n 's/.*reading \([0-9.?]*\).*/\1/p' <<< "$line")
    each[$n]=$(sed -n 's/.*CPU s each \([0-9. ?]*\) (busiest.*/\1/p' <<< "$line")
done
# One thread: the whole process is the one "worker".
busiest[1]=${cpus[1]} reading[1]="-" each[1]=${cpus[1]}
mcp_secs=${wall[1]}

packets=$(sed -n 's/^  packets: *\([0-9]*\).*/\1/p' "$out/summary-t1.txt")
msgs=$(sed -n 's/^  http: *\([0-9]*\) requests, \([0-9]*\) responses.*/\1 \2/p' "$out/summary-t1.txt" | awk '{print $1+$2}')

tshark_secs="" tshark_cpu="" tshark_rss="" tshark_file=""
if [[ "${TSHARK:-1}" != 0 ]] && command -v tshark > /dev/null && (( bytes <= ${TSHARK_MAX_BYTES:-2147483648} )); then
    # One run, after the rounds: tshark is slow, and its memory grows with the file.
    time_once tshark sh -c "tshark -r '$pcap' -o tcp.desegment_tcp_streams:TRUE -o tcp.reassemble_out_of_order:TRUE \
        -Y http.response -T fields -e http.content_type > '$out/tshark.txt' 2> /dev/null"
    tshark_secs=$(median "${walls[tshark]}") tshark_cpu=$(median "${cpus_all[tshark]}") tshark_rss=${rss_max[tshark]}
    tshark_file="$out/tshark.txt"
else
    echo "bench: tshark skipped (not installed, TSHARK=0, or capture above TSHARK_MAX_BYTES)" >&2
fi

row() { # name wall_s cpu_s rss_kib with_msgs
    awk -v n="$1" -v s="$2" -v c="$3" -v r="$4" -v b="$bytes" -v p="$packets" -v m="$5" -v ms="$mcp_secs" 'BEGIN {
        if (s <= 0) s = 0.01; if (c <= 0) c = 0.01;
        printf "| %-26s | %7.2f | %7.2f | %8.0f | %8.0f | %11.0f | %10s | %7.0f | %7s |\n", n, s, c, b / s / 1e6,
            b / c / 1e6, p / s, (m == "" ? "n/a" : sprintf("%.0f", m / s)), r / 1024, sprintf("%.2fx", s / ms) }'
}
echo
echo "capture: $pcap ($bytes bytes, $packets packets, $msgs HTTP messages); median of $runs interleaved rounds"
echo "machine: $(nproc) CPUs, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run                        |  wall s |   CPU s | MB/s wall | MB/s CPU |   packets/s | HTTP msg/s | RSS MiB | time ÷ mcptap |"
echo "|---|---|---|---|---|---|---|---|---|"
row "readloop (read+decode)" "$read_secs" "$read_cpu" "$read_rss" ""
[[ -n "$base_bin" ]] && row "baseline $rev, one thread" "$base_secs" "$base_cpu" "$base_rss" "$msgs"
for n in 1 $threads; do
    row "mcptap --threads $n" "${wall[$n]}" "${cpus[$n]}" "${rss[$n]}" "$msgs"
done
if [[ -n "$pgo_bin" ]]; then
    for n in 1 $threads; do
        row "mcptap PGO --threads $n" "$(median "${walls[p$n]}")" "$(median "${cpus_all[p$n]}")" "${rss_max[p$n]}" "$msgs"
    done
fi
[[ -n "$tshark_secs" ]] && row "tshark" "$tshark_secs" "$tshark_cpu" "$tshark_rss" "$msgs"
echo
echo "CPU per worker (seconds; the busiest bounds the run on N free cores; one thread: the whole process):"
echo
echo "| N | CPU s each worker | busiest | reading thread | busiest ÷ one-thread CPU |"
echo "|---|---|---|---|---|"
for n in 1 $threads; do
    awk -v n="$n" -v e="${each[$n]}" -v b="${busiest[$n]}" -v r="${reading[$n]}" -v one="${cpus[1]}" \
        'BEGIN { printf "| %s | %s | %s | %s | %s |\n", n, e, b, r, (b + 0 > 0 ? sprintf("1/%.1f", one / b) : "?") }'
done
echo
status=0
verdict() { if [[ $1 == 1 ]]; then echo "met"; else echo "NOT met"; fi; }
# The two speed targets for one build: LABEL ("" or "PGO build, "), TOOL the build's name prefix (t or p).
speed_targets() {
    local label=$1 tool=$2 one mbps x px ok
    one=$(median "${walls[${tool}1]}")
    mbps=$(awk -v b="$bytes" -v s="$one" 'BEGIN { printf "%.0f", b / s / 1e6 }')
    if [[ -n "$base_bin" ]]; then
        x=$(awk -v a="$base_secs" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
        px=$(paired baseline "${tool}1")
        ok=$(awk -v m="$mbps" -v x="$px" 'BEGIN { print (m >= 1000 || x >= 2.3) ? 1 : 0 }')
        echo "- ${label}one thread >= 1,000 MB/s or >= 2.3x the baseline: $mbps MB/s, ${px}x baseline $rev (paired by round; ${x}x from the medians): $(verdict "$ok")"
    else
        ok=$(awk -v m="$mbps" 'BEGIN { print (m >= 1000) ? 1 : 0 }')
        echo "- ${label}one thread >= 1,000 MB/s: $mbps MB/s: $(verdict "$ok")"
    fi
    if [[ -n "${walls[${tool}2]:-}" ]]; then
        x=$(awk -v a="$one" -v b="$(median "${walls[${tool}2]}")" 'BEGIN { printf "%.2f", a / b }')
        px=$(paired "${tool}1" "${tool}2")
        echo "- ${label}--threads 2 >= 1.8x its one thread (wall): ${px}x (paired by round; ${x}x from the medians): $(verdict "$(awk -v x="$px" 'BEGIN { print (x >= 1.8) }')")"
    fi
}
echo "targets (issue 17), from this run:"
speed_targets "" t
if [[ -n "${busiest[8]:-}" ]]; then
    x=$(awk -v one="${cpus[1]}" -v b="${busiest[8]}" 'BEGIN { printf "%.1f", one / b }')
    echo "- N = 8: busiest worker <= 1/6 of one-thread CPU: 1/$x: $(verdict "$(awk -v x="$x" 'BEGIN { print (x >= 6) }')")"
fi
if [[ -n "$pgo_bin" ]]; then
    speed_targets "PGO build, " p
    echo "- PGO build over the plain build, one thread: $(paired t1 p1)x faster (paired by round)"
fi
max_rss=0
for n in 1 $threads; do (( rss[$n] > max_rss )) && max_rss=${rss[$n]}; done
if [[ -n "$pgo_bin" ]]; then
    for n in 1 $threads; do (( rss_max[p$n] > max_rss )) && max_rss=${rss_max[p$n]}; done
fi
echo "- peak RSS <= 64 MiB at every N: $((max_rss / 1024)) MiB at most: $(verdict "$(( max_rss <= 65536 ))")"
[[ -n "$tshark_secs" ]] && awk -v t="$tshark_secs" -v a="${wall[1]}" -v b="${wall[2]:-0}" \
    'BEGIN { printf "- speed over tshark (wall, same run): %.1fx on one thread%s\n", t / a, (b > 0 ? sprintf(", %.1fx with --threads 2", t / b) : "") }'
echo
# The summary's measured lines (wall time, workers' CPU) are the only lines that differ between runs.
same_summary() { cmp -s <(grep -v -e '^  elapsed:' -e '^  workers:' "$1") <(grep -v -e '^  elapsed:' -e '^  workers:' "$2"); }
# The session inventory (--sessions) costs time of its own, so it is compared in untimed runs.
for n in 1 $threads; do
    "$bin" -q -r "$pcap" --threads "$n" -o /dev/null --sessions "$out/sessions-t$n.csv"
done
for n in $threads; do
    if cmp -s "$out/report-t1.csv" "$out/report-t$n.csv" && cmp -s "$out/sessions-t1.csv" "$out/sessions-t$n.csv" \
        && same_summary "$out/summary-t1.txt" "$out/summary-t$n.txt"; then
        echo "--threads $n: report, session inventory and summary byte-identical to one thread"
    else
        echo "--threads $n: REPORT DIFFERS from one thread" && status=1
    fi
done
if [[ -n "$pgo_bin" ]]; then
    for n in 1 $threads; do
        if cmp -s "$out/report-t1.csv" "$out/report-p$n.csv" && same_summary "$out/summary-t1.txt" "$out/summary-p$n.txt"; then
            echo "PGO --threads $n: report and summary byte-identical to the plain build's one thread"
        else
            echo "PGO --threads $n: REPORT DIFFERS from the plain build" && status=1
        fi
    done
fi
echo "correctness against $pcap.truth.csv:"
python3 "$root/bench/check.py" "$pcap.truth.csv" "$out/report-t1.csv" "$out/summary-t1.txt" $tshark_file || status=1
exit $status

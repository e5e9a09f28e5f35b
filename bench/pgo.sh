#!/usr/bin/env bash
# Profile-guided build of mcptap (PGO): an instrumented binary is run over training traffic, and the
# release build is then compiled with the branch and call counts it recorded, so that LLVM lays out hot
# paths straight and inlines where the traffic goes. mcptap's per-packet path runs through every layer
# (TCP, HTTP, JSON-RPC, MCP, rules) and has no single hot loop: its code does not fit the instruction
# cache, which is what PGO's layout helps. Same source, same verdicts: before it finishes, the script
# checks that the PGO binary's report and summary over every bundled sample are byte-identical to the
# plain release build's.
#
#   bench/pgo.sh [CARGO_ARGS...]     e.g. bench/pgo.sh --features live
#
# Output: target/pgo/mcptap (the plain release build in target/release is built too, with the same
# CARGO_ARGS, to compare against). About five minutes on two cores. Needs llvm-profdata from the same LLVM
# as rustc: `rustup component add llvm-tools` (found in the toolchain's sysroot), or
# LLVM_PROFDATA=/path/to/llvm-profdata.
#
# Training traffic: every capture in samples/ (the SDKs, the conformance suite, third-party servers, TLS,
# HTTP/2, compressed bodies, the legacy transport) read in one run, and a synthetic capture from
# bench/gen_mcp_pcap.py with seed 7 (TRAIN_BYTES, default 256 MiB) on one thread and on two workers. The
# benchmark (bench/run.sh) measures on seed 42, so the binary is not timed on the traffic it was trained on.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/target/pgo"
train_bytes="${TRAIN_BYTES:-268435456}"
cargo_args=("$@")

die() { echo "pgo: $*" >&2; exit 2; }

host=$(rustc -vV | sed -n 's/^host: //p')
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata="${LLVM_PROFDATA:-$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata}"
[[ -x "$profdata" ]] || die "llvm-profdata not found at $profdata: run 'rustup component add llvm-tools', or set LLVM_PROFDATA"
# A profile written by one LLVM cannot be read by an older one: the two must be the same major version.
pd_major=$("$profdata" --version | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -1)
[[ "$pd_major" == "$llvm_major" ]] || die "$profdata is LLVM $pd_major, rustc uses LLVM $llvm_major"

mkdir -p "$out"
train="$out/train_${train_bytes}_s7.pcap"
if [[ ! -f "$train" ]]; then
    echo "pgo: generating the training capture $train" >&2
    python3 "$root/bench/gen_mcp_pcap.py" --target-bytes "$train_bytes" --seed 7 --out "$train" >&2
fi
mapfile -t samples < <(cd "$root" && find samples \( -name '*.pcap' -o -name '*.pcapng' \) | sort)
(( ${#samples[@]} > 0 )) || die "no captures under samples/"
sample_args=()
for s in "${samples[@]}"; do sample_args+=(-r "$root/$s"); done
# The TLS samples' key logs, so that decryption and HTTP/2 are trained too.
while IFS= read -r k; do sample_args+=(--keylog "$root/$k"); done < <(cd "$root" && find samples -name '*.keys' | sort)

# Separate target directories: RUSTFLAGS differ, and the plain release build in target/ stays as it is.
profiles="$out/profiles"
rm -rf "$profiles"
echo "pgo: building the instrumented binary" >&2
(cd "$root" && CARGO_TARGET_DIR="$out/gen" RUSTFLAGS="-Cprofile-generate=$profiles" \
    cargo build --release --locked --quiet --bin mcptap "${cargo_args[@]}")
gen="$out/gen/release/mcptap"
echo "pgo: training" >&2
"$gen" -q "${sample_args[@]}" -o "$out/train.csv" --sessions "$out/train-sessions.csv" --html "$out/train.html" \
    || die "the instrumented binary failed on samples/"
"$gen" -q -r "$train" -o /dev/null || die "the instrumented binary failed on $train"
"$gen" -q -r "$train" --threads 2 -o /dev/null || die "the instrumented binary failed on $train with --threads 2"
"$profdata" merge -o "$out/mcptap.profdata" "$profiles"

echo "pgo: building with the profile" >&2
(cd "$root" && CARGO_TARGET_DIR="$out/use" RUSTFLAGS="-Cprofile-use=$out/mcptap.profdata" \
    cargo build --release --locked --quiet --bin mcptap "${cargo_args[@]}")
(cd "$root" && cargo build --release --locked --quiet --bin mcptap "${cargo_args[@]}")

# The same verdicts as the plain build, byte for byte, before the binary is put where it is used.
plain="$root/target/release/mcptap" pgo="$out/use/release/mcptap"
for bin in plain pgo; do
    "${!bin}" "${sample_args[@]}" -o "$out/check-$bin.csv" 2> "$out/check-$bin.txt" \
        || die "the $bin build failed on samples/ (see $out/check-$bin.txt)"
    grep -v '^  elapsed:' "$out/check-$bin.txt" > "$out/check-$bin.summary"
done
cmp -s "$out/check-plain.csv" "$out/check-pgo.csv" && cmp -s "$out/check-plain.summary" "$out/check-pgo.summary" \
    || die "the PGO binary's report differs from the plain build's over samples/ (see $out/check-*)"
cp "$pgo" "$out/mcptap.new" && mv "$out/mcptap.new" "$out/mcptap"
echo "pgo: $out/mcptap (report and summary over ${#samples[@]} sample captures identical to the plain build)" >&2

#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one at a time (the machine has 2 shared cores).
# Needs cargo-fuzz (`cargo install cargo-fuzz`); on a stable toolchain RUSTC_BOOTSTRAP=1 lets it use the
# nightly-only -Z sanitizer flags. Crashes land in fuzz/artifacts/<target>/.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(capture decode reassembly http h2 sse jsonrpc jsonrpc_push analyzer shards coding)
[ -d corpus ] || ./seed.sh
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" logs
  echo "== $t for ${secs}s"
  # -rss_limit_mb: a runaway allocation is a finding; -timeout: a hang is a finding.
  cargo fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
    -max_len=262144 -print_final_stats=1 2>&1 | tee "logs/$t.log" | grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+== ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
done

#!/usr/bin/env bash
# Runs every libFuzzer target of build-fuzz/ for a fixed number of
# executions and prints, per target: executions, seconds, coverage (edges,
# features), corpus size and crashes (crash inputs / all saved inputs,
# timeouts and OOMs included, under build-fuzz/fuzz-out/TARGET/crashes/).
#
#   bash tests/fuzz/run.sh [RUNS] [TARGET...]     (RUNS default 100000)
#   FUZZ_SECONDS=600 bash tests/fuzz/run.sh ...   (also stop after 600 s)
#   FUZZ_FORK=8 bash tests/fuzz/run.sh ...        (8 processes: -fork=8,
#                                                  crashes do not stop it)
#   FUZZ_BIN=DIR bash tests/fuzz/run.sh ...       (tlc-fuzz-* from DIR)
#   FUZZ_OUT=DIR bash tests/fuzz/run.sh ...       (corpus, crashes and logs
#                                                  under DIR/TARGET, not
#                                                  build-fuzz/fuzz-out)
#
# Build first (clang-22, see tests/fuzz/README.md):
#   cmake -G Ninja -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-22 \
#     -DCMAKE_CXX_COMPILER=clang++-22 -DTLC_FUZZ=ON && ninja -C build-fuzz tlc-fuzz
set -uo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-100000}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(parser manifest npy lsp eval)
# LLVM's headers poison memory from instrumented code that the Debian
# libraries (not instrumented) then touch: user poisoning off.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# Seeds, input sizes, dictionaries and schedule: tests/fuzz/options.sh.
. tests/fuzz/options.sh
printf '%-9s %12s %8s %8s %8s %7s %8s\n' target executions seconds edges features corpus crashes
for t in "${targets[@]}"; do
  bin=${FUZZ_BIN:-build-fuzz/bin}/tlc-fuzz-$t
  [ -x "$bin" ] || { echo "$t: $bin not built"; continue; }
  out=${FUZZ_OUT:-build-fuzz/fuzz-out}/$t
  mkdir -p "$out/corpus" "$out/crashes"
  log=$out/last.log
  start=$(date +%s)
  fork=()
  [ -n "${FUZZ_FORK:-}" ] && fork=(-fork="$FUZZ_FORK" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  # shellcheck disable=SC2046
  "$bin" "${fork[@]}" -runs="$runs" -max_total_time="${FUZZ_SECONDS:-0}" -timeout=20 \
    $(fuzz_flags "$t") \
    -rss_limit_mb=3072 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/" "$out/corpus" $(fuzz_seeds "$t") \
    >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ -n "${FUZZ_FORK:-}" ]; then # The parent's "#EXECS: cov: ..." lines.
    execs=$(grep -o '^#[0-9]*: cov' "$log" | grep -o '[0-9]*' | tail -1)
  else
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  fi
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  corp=$(find "$out/corpus" -type f | wc -l)
  crashes=$(find "$out/crashes" -type f -name 'crash-*' | wc -l)
  crashes="$crashes/$(find "$out/crashes" -type f | wc -l)"
  printf '%-9s %12s %8s %8s %8s %7s %8s%s\n' "$t" "${execs:-?}" "$secs" \
    "${cov:-?}" "${ft:-?}" "$corp" "$crashes" \
    "$( ((rc)) && echo "   (exit $rc; see $log)")"
done

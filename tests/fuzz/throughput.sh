#!/usr/bin/env bash
# Executions per second of fuzz targets on one core, from a fixed seed set
# (the target's seeds of options.sh) into an empty corpus, with a fixed
# random seed and a fixed number of executions, so that two builds or two
# option sets can be compared (docs/perf/fuzz.md):
#
#   bash tests/fuzz/throughput.sh [TARGET...]            (build-fuzz/bin)
#   FUZZ_BIN=DIR FUZZ_PROFILE=old bash tests/fuzz/throughput.sh parser
#   FUZZ_RUNS=20000 ...     (executions per target; default per target)
#
# Prints target, executions, CPU seconds (user + system: the shared
# development machine's load does not count), executions per CPU second,
# edges, features and the options. Runs pinned to CPU ${FUZZ_CPU:-0}.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/fuzz/options.sh
targets=("$@")
((${#targets[@]})) || targets=(parser eval lsp manifest npy)
bindir=${FUZZ_BIN:-build-fuzz/bin}
pin=()
command -v taskset >/dev/null && pin=(taskset -c "${FUZZ_CPU:-0}")
runs() {
  [ -n "${FUZZ_RUNS:-}" ] && { echo "$FUZZ_RUNS"; return; }
  case $1 in
    parser) echo 30000 ;;
    eval) echo 6000 ;;
    lsp) echo 15000 ;;
    *) echo 300000 ;;
  esac
}
printf '%-9s %9s %8s %8s %7s %8s  %s\n' target execs cpu-s exec/s edges features options
for t in "${targets[@]}"; do
  bin=$bindir/tlc-fuzz-$t
  [ -x "$bin" ] || { echo "$t: $bin not built"; continue; }
  work=$(mktemp -d)
  mkdir -p "$work/corpus" "$work/crashes"
  # shellcheck disable=SC2207
  flags=($(fuzz_flags "$t"))
  # shellcheck disable=SC2046
  /usr/bin/time -f 'cpu %U %S' -o "$work/time" "${pin[@]}" "$bin" -seed=1 -runs="$(runs "$t")" -timeout=20 -rss_limit_mb=3072 \
    -print_final_stats=1 -artifact_prefix="$work/crashes/" "${flags[@]}" \
    "$work/corpus" $(fuzz_seeds "$t") >"$work/log" 2>&1
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$work/log" | tail -1 | grep -o '[0-9]*')
  read -r _ user sys <"$work/time"
  awk -v t="$t" -v e="${execs:-0}" -v s="$(echo "$user + $sys" | bc)" -v c="${cov:-?}" \
      -v ft="${ft:-?}" -v o="${flags[*]}" \
      'BEGIN { printf "%-9s %9d %8.1f %8.0f %7s %8s  %s\n", t, e, s, e / s, c, ft, o }'
  grep -q 'ERROR: libFuzzer\|deadly signal' "$work/log" && echo "  ($t stopped early: $(grep -m1 'ERROR' "$work/log"))"
  rm -rf "$work"
done

#!/usr/bin/env bash
# Runs the fuzz targets at once for T seconds over the cores of a larger
# machine (the H200 host's 16), then writes the figures and what they found
# to $OUT. Run from the repository root, the programs in $FUZZ_BIN:
#
#   T=400 OUT=/tmp/out FUZZ_BIN=build-fuzz/h200 bash tests/fuzz/device-run.sh
#   CORES="parser=6 eval=6 lsp=4 small=1" ...   (workers per target)
#
# Each worker is one plain libFuzzer process (no -fork: its jobs restart
# and reload their corpus every few seconds, and its parent outlives
# -max_total_time), in its own process group, stopping itself at T
# (-max_total_time) and restarted after a crash or timeout until then; the
# workers of a target share one corpus directory (libFuzzer reloads it).
# Each process prints its executions at exit (-print_final_stats, also on
# SIGINT, sent at T+5 s to any still running; SIGKILL at T+20 s, counted
# from its last status line). "small" runs npy to 10^7, then manifest.
# After T each target runs once over its whole corpus (-runs=0) for the
# coverage (edges, features) of the union.
# RESUME=DIR continues an earlier run: DIR holds that run's
# corpus-TARGET.tar.gz files (its $OUT), unpacked into each target's corpus
# first, so two device calls make one campaign.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/fuzz/options.sh
T=${T:-400}
OUT=${OUT:?}
bin=${FUZZ_BIN:-build-fuzz/h200}
CORES=${CORES:-parser=6 eval=6 lsp=4}
work=${FUZZ_WORK:-/tmp/tlc-fuzz-device}
rm -rf "$work"
mkdir -p "$OUT"
start=$(date +%s)
deadline=$((start + T))
worker() { # target slot: loop until the deadline
  local t=$1 i=$2 k=0 left
  # shellcheck disable=SC2207
  local flags=($(fuzz_flags "$t"))
  while left=$((deadline - $(date +%s))); ((left > 2)); do
    k=$((k + 1))
    # shellcheck disable=SC2046
    TLC_FUZZ_STATS=1 "$bin/tlc-fuzz-$t" -seed=$((i * 1000 + k)) -max_total_time="$left" \
      -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$work/$t/crashes/" "${flags[@]}" \
      "$work/$t/corpus" $(fuzz_seeds "$t") >"$work/$t/log/w$i-$k.log" 2>&1
  done
}
small() {
  local t
  for t in npy manifest; do
    # shellcheck disable=SC2207
    local flags=($(fuzz_flags "$t")) runs=10000000
    [ $t = manifest ] && runs=1000000000
    # shellcheck disable=SC2046
    "$bin/tlc-fuzz-$t" -seed=1 -runs=$runs -max_total_time=$((deadline - $(date +%s))) \
      -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$work/$t/crashes/" "${flags[@]}" \
      "$work/$t/corpus" $(fuzz_seeds "$t") >"$work/$t/log/w1-1.log" 2>&1
  done
}
targets=(parser eval lsp npy manifest)
for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus" "$work/$t/crashes" "$work/$t/log"
  if [ -n "${RESUME:-}" ] && [ -f "$RESUME/corpus-$t.tar.gz" ]; then
    tar xzf "$RESUME/corpus-$t.tar.gz" -C "$work/$t"
  fi
done
pids=()
for spec in $CORES; do
  t=${spec%=*} n=${spec#*=}
  for ((i = 1; i <= n; i++)); do
    if [ "$t" = small ]; then setsid bash -c "$(declare -f small fuzz_flags fuzz_seeds); deadline=$deadline bin=$bin work=$work small" &
    else setsid bash -c "$(declare -f worker fuzz_flags fuzz_seeds); deadline=$deadline bin=$bin work=$work worker $t $i" &
    fi
    pids+=($!)
  done
done
sleep $((T + 3))
for p in "${pids[@]}"; do kill -INT -- -"$p" 2>/dev/null; done
for _ in $(seq 15); do
  alive=0
  for p in "${pids[@]}"; do kill -0 -- -"$p" 2>/dev/null && alive=1; done
  ((alive)) || break
  sleep 1
done
for p in "${pids[@]}"; do kill -KILL -- -"$p" 2>/dev/null; done
wait
secs=$(($(date +%s) - start))
# Coverage of each target's whole corpus (seeds included), in parallel.
for t in "${targets[@]}"; do
  # shellcheck disable=SC2046,SC2207
  flags=($(fuzz_flags "$t"))
  # shellcheck disable=SC2046
  timeout 20 "$bin/tlc-fuzz-$t" -runs=0 -timeout=10 "${flags[@]}" \
    "$work/$t/corpus" $(fuzz_seeds "$t") >"$work/$t/log/union.log" 2>&1 &
done
wait
{
  echo "cores: $(nproc)  T: $T  seconds: $secs  workers: $CORES"
  printf '%-9s %12s %6s %8s %8s %8s %8s %9s\n' target executions procs exec/s edges features corpus crash/all
  for t in "${targets[@]}"; do
    execs=0 procs=0
    for log in "$work/$t"/log/w*.log; do
      [ -f "$log" ] || continue
      procs=$((procs + 1))
      n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
      # Killed without final stats: its last "#N" status line.
      [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$log" | tr -d '#' | tail -1)
      execs=$((execs + ${n:-0}))
    done
    cov=$(grep -o 'cov: [0-9]*' "$work/$t/log/union.log" | tail -1 | grep -o '[0-9]*')
    ft=$(grep -o 'ft: [0-9]*' "$work/$t/log/union.log" | tail -1 | grep -o '[0-9]*')
    corp=$(find "$work/$t/corpus" -type f | wc -l)
    crashes="$(find "$work/$t/crashes" -type f -name 'crash-*' | wc -l)/$(find "$work/$t/crashes" -type f | wc -l)"
    printf '%-9s %12s %6s %8s %8s %8s %8s %9s\n' "$t" "$execs" "$procs" "$((execs / T))" \
      "${cov:-?}" "${ft:-?}" "$corp" "$crashes"
  done
  # What the eval workers' inputs reached (printed at a normal exit).
  cat "$work"/eval/log/w*.log 2>/dev/null | awk '/^fuzz-eval:/ { n += $2; e += $4; b += $6 }
    END { printf "eval: %d inputs counted at exit, %d evaluated (no syntax error), %d over the step budget\n", n, e, b }'
} | tee "$OUT/summary.txt"
tar czf "$OUT/logs.tar.gz" -C "$work" $(cd "$work" && ls -d */log)
tar czf "$OUT/crashes.tar.gz" -C "$work" $(cd "$work" && ls -d */crashes)
for t in "${targets[@]}"; do tar czf "$OUT/corpus-$t.tar.gz" -C "$work/$t" corpus; done
ls -la "$OUT"

#!/bin/bash
# Times the CPU reference target on programs at their own sizes: each
# program of examples/ is built with `tlc-build --target=cpu` and run by
# `tlc-run --device cpu --bench --bench-runs 1 --threads N` (one untimed
# run, then one timed run; inputs are tlc-run's seeded random tensors).
# Prints one line per (program, thread count): the timed run's
# milliseconds, the FLOP rate where the program's FLOP count is known,
# and the whole tlc-run's wall seconds (input generation and the untimed
# run included).
#
# Usage: BIN=build/bin [THREADS="1 16"] [ONLY=name] [OUT=dir] \
#          bash tests/bench/Cpu/cpu_bench.sh
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
OUT=${OUT:-/tmp/tlc-cpu-bench}
THREADS=${THREADS:-"1 $(nproc)"}
mkdir -p "$OUT"
export TLC_CACHE_DIR=${TLC_CACHE_DIR:-$OUT/cache}

# name | example | tlc-build -D bindings | FLOPs (0: not reported)
CASES="
gemm_4096|gemm.py|-DM=4096 -DN=4096 -DK=4096|$((2 * 4096 * 4096 * 4096))
gemm_8192|gemm.py|-DM=8192 -DN=8192 -DK=8192|$((2 * 8192 * 8192 * 8192))
flash_attention_fwd_b8h32s4096d128|flash_attention_fwd.py||$((4 * 8 * 32 * 4096 * 4096 * 128))
elementwise_add_8192x8192|elementwise_add.py|-Dm=8192 -Dn=8192|0
rms_norm_8192x4096|rms_norm.py||0
softmax_4096x8192|softmax.py||0
"

echo "# tlc-run --device cpu on $(nproc) hardware threads: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
printf '%-36s %7s %12s %10s %8s\n' program threads run_ms GFLOP/s wall_s
echo "$CASES" | while IFS='|' read -r name file defs flops; do
  [ -z "$name" ] && continue
  [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ] && continue
  art=$OUT/$name
  # shellcheck disable=SC2086
  if ! "$BIN/tlc-build" --target=cpu $defs -o "$art" "$ROOT/examples/$file" \
       > "$OUT/$name.build.log" 2>&1; then
    echo "$name: build failed (see $OUT/$name.build.log)"
    continue
  fi
  for t in $THREADS; do
    start=$(date +%s.%N)
    "$BIN/tlc-run" --device cpu --threads "$t" --bench --bench-runs 1 "$art" \
      > "$OUT/$name.t$t.log" 2>&1
    rc=$?
    end=$(date +%s.%N)
    ms=$(sed -n 's/.*bench: median \([0-9.]*\) ms.*/\1/p' "$OUT/$name.t$t.log" | head -1)
    if [ "$rc" != 0 ] || [ -z "$ms" ]; then
      echo "$name: tlc-run failed with $t threads (rc $rc, see $OUT/$name.t$t.log)"
      continue
    fi
    rate=-
    [ "$flops" != 0 ] && rate=$(awk -v f="$flops" -v ms="$ms" 'BEGIN { printf "%.1f", f / (ms * 1e6) }')
    printf '%-36s %7s %12s %10s %8.1f\n' "$name" "$t" "$ms" "$rate" \
      "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
  done
done

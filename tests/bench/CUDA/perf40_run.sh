#!/bin/bash
# perf40's GPU call (issue 14), staged by perf40_stage.sh as S/go.sh next
# to xz-compressed old (main: perf39's passes, the persistent 4-stage GEMM
# storing from the registers) and new tlc-build binaries. From the
# repository root on the GPU machine, at most 7 minutes:
#   OUT=$OUT bash build-h200-perf40/go.sh
# STAGE_DRY_RUN=1 prints the commands instead (no GPU, no binaries used).
# Later steps are skipped past their deadlines (the whole by 420 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify): the persistent 4-stage GEMM with its
#                  tile staged in column bands (tile-gemm-epilogue-bands:
#                  the default 4 bands, NN f16 and TN bf16, 8 bands, =False
#                  the register store; old: the register store), perf39's
#                  default (wide + deep) with tlc.gemm_wide_n /
#                  tlc.gemm_deepen_ring off, each and both; then each
#                  kernel's partition / stages / persistence / bands and
#                  which kernels' CUDA changed old vs new
#   gemm.log       gemm_graph_bench.py CONFIGS=perf40 (new): default; wide
#                  off; deepen off; both off; 4 stages persistent (bands);
#                  4 stages persistent, bands off (registers); 4 stages one
#                  tile a block; next to torch.matmul in the same process;
#                  gemm-old.log: main's default and 4 stages persistent
#                  (CONFIGS=perf40old)
#   sass.log       sass_hot_loop.py of the 4096^3 4-stage persistent GEMM,
#                  old (register store) and new (bands)
#   sanitizer.log  compute-sanitizer memcheck + racecheck of the banded
#                  epilogue (NN f16, TN bf16) and the wide + deep default
#   skinny.log     gemmperf_bench.py skinny (new, REPS=1): serial split-K,
#                  split-K / stream-K by atomics next to torch.matmul
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf40 420
hg=$P/hopper_gemm.py
R="-DM=376 -DN=600 -DK=456"
s4p="-Dnum_stages=4 --pass-config=tlc.persistent=True"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_bands|$hg|$R $s4p --pass-config=tlc.num_sms=2|old new"
  "v_bands_tn|$hg|-DM=1000 -DN=1000 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 $s4p --pass-config=tlc.num_sms=4|old new"
  "v_bands8|$hg|$R $s4p --pass-config=tlc.num_sms=2 --pass-config=tlc.gemm_epilogue_bands=8|new"
  "v_bands_off|$hg|$R $s4p --pass-config=tlc.num_sms=2 --pass-config=tlc.gemm_epilogue_bands=False|new"
  "v_default|$hg|$R --pass-config=tlc.num_sms=4|old new"
  "v_wide_off|$hg|$R --pass-config=tlc.num_sms=4 --pass-config=tlc.gemm_wide_n=False|new"
  "v_deep_off|$hg|$R --pass-config=tlc.num_sms=4 --pass-config=tlc.gemm_deepen_ring=False|new"
  "v_both_off|$hg|$R --pass-config=tlc.num_sms=4 --pass-config=tlc.gemm_wide_n=False --pass-config=tlc.gemm_deepen_ring=False|new"
  "s_s4p_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $s4p|old new"
  "s_default_4096|$hg|-DM=4096 -DN=4096 -DK=4096|old new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf40 CONFIGS=perf40"
GEMM_OLD="TLC_BUILD=$W/bin/tlc-build-old TLC_CACHE_DIR=/tmp/tlc-cache-perf40-old CONFIGS=perf40old"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
# The bench GEMMs into the builds' caches (6 + 2 processes, until 200 s)
# while the kernels are built and verified; the timed runs build the rest.
stage_prebuild "" 6 200 "$GEMM_ENV" $SHAPES
stage_prebuild old 2 200 "$GEMM_OLD" $SHAPES
stage_build 8
if [ -z "${STAGE_DRY_RUN:-}" ]; then
  for which in old new; do
    for v in "${kernels[@]}"; do
      IFS='|' read -r name _ _ builds <<< "$v"
      f=$(ls "$W/$which/$name/"*.cu 2>/dev/null | head -1); [ -n "$f" ] || continue
      echo "$which $name: $(grep -o 'wgmma.C · [0-9]×[0-9] warps' "$f" | head -1), $(grep -o 'num_stages = [0-9]*' "$f" | head -1), persistent $(grep -c 'tile_1 += ' "$f"), bands $(grep -o 'in [0-9]* bands of [0-9]* columns' "$f" | head -1), register store $(grep -c 'copyVector<4>(&C\[' "$f")" >> "$O/verify.log"
    done
  done
  stage_cuda_changed s_s4p_4096 s_default_4096 v_default
fi
step built
stage_verify 170 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log" 2>/dev/null) verified outputs (10 expected)" | tee -a "$O/verify.log"
step verified
[ -n "${STAGE_DRY_RUN:-}" ] || wait
cat "$W"/gemm-build-*.log 2>/dev/null | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 260 "gemm bench"; then
  xl "$O/gemm.log" env $GEMM_ENV timeout $(left 340) python3 "$P/gemm_graph_bench.py" $SHAPES
  step "gemm bench"
fi
if ! late 330 "gemm bench old"; then
  xl "$O/gemm-old.log" env $GEMM_OLD timeout $(left 365) python3 "$P/gemm_graph_bench.py" $SHAPES
  step "gemm bench old"
fi
stage_sass 0 s_s4p_4096
step sass
stage_sanitize 385 400 v_bands v_bands_tn v_default
step sanitized
if ! late 395 "skinny"; then
  xl "$O/skinny.log" env TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf40 REPS=1 timeout $(left 418) python3 "$P/gemmperf_bench.py" skinny
  step skinny
fi
step done
grep "PASS .* verified" "$O/verify.log" 2>/dev/null; grep -E "CUDA|warps|FAIL" "$O/verify.log" 2>/dev/null
grep -E "geometric|lowest" "$O/gemm.log" "$O/gemm-old.log" 2>/dev/null

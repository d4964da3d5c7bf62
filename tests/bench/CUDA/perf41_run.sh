#!/bin/bash
# perf41's GPU call (issue 14), staged by perf41_stage.sh as S/go.sh next
# to xz-compressed old (main: the persistent 4-stage GEMM's column bands
# stored by the threads, perf40) and new (each band stored by TMA)
# tlc-build binaries. From the repository root on the GPU machine, at most
# 7.5 minutes:
#   OUT=$OUT bash build-h200-perf41/go.sh
# STAGE_DRY_RUN=1 prints the commands instead (no GPU, no binaries used).
# Later steps are skipped past their deadlines (the whole by 450 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify): the persistent 4-stage GEMM with its
#                  bands stored by TMA (tile-gemm-epilogue-bands: 4 bands in
#                  two buffers NN f16 376 x 600 x 456 on 2 blocks and TN
#                  bf16 1000 x 1000 x 200 on 4, old = the threads' stores; 2
#                  bands in one buffer; tlc.tma_store_async=False;
#                  tlc.gemm_epilogue_tma_store=False), the default (old and
#                  new, CUDA identical); then each kernel's bands / TMA
#                  store and which kernels' CUDA changed old vs new
#   gemm.log       gemm_graph_bench.py CONFIGS=perf41 (new): default; 4
#                  stages persistent: TMA bands (4 x 2 buffers), TMA 2
#                  bands one buffer, the threads' bands, the register store;
#                  4 stages one tile a block; next to torch.matmul in the
#                  same process; gemm-old.log: main's default and 4 stages
#                  persistent (CONFIGS=perf41old)
#   sass.log       sass_hot_loop.py of the 4096^3 4-stage persistent GEMM,
#                  old (threads' bands) and new (TMA bands)
#   sanitizer.log  compute-sanitizer memcheck + racecheck of the TMA bands
#                  (NN f16 two buffers, TN bf16, 2 bands one buffer)
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf41 450
hg=$P/hopper_gemm.py
R="-DM=376 -DN=600 -DK=456"
s4p="-Dnum_stages=4 --pass-config=tlc.persistent=True"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_tma|$hg|$R $s4p --pass-config=tlc.num_sms=2|old new"
  "v_tma_tn|$hg|-DM=1000 -DN=1000 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 $s4p --pass-config=tlc.num_sms=4|old new"
  "v_tma_two|$hg|$R $s4p --pass-config=tlc.num_sms=2 --pass-config=tlc.gemm_epilogue_bands=2|new"
  "v_tma_wait|$hg|$R $s4p --pass-config=tlc.num_sms=2 --pass-config=tlc.tma_store_async=False|new"
  "v_tma_off|$hg|$R $s4p --pass-config=tlc.num_sms=2 --pass-config=tlc.gemm_epilogue_tma_store=False|new"
  "v_default|$hg|$R --pass-config=tlc.num_sms=4|old new"
  "s_s4p_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $s4p|old new"
  "s_default_4096|$hg|-DM=4096 -DN=4096 -DK=4096|old new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf41 CONFIGS=perf41"
GEMM_OLD="TLC_BUILD=$W/bin/tlc-build-old TLC_CACHE_DIR=/tmp/tlc-cache-perf41-old CONFIGS=perf41old"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
# The bench GEMMs into the builds' caches (6 + 2 processes, until 190 s)
# while the kernels are built and verified; the timed runs build the rest.
stage_prebuild "" 6 190 "$GEMM_ENV" $SHAPES
stage_prebuild old 2 190 "$GEMM_OLD" $SHAPES
stage_build 8
if [ -z "${STAGE_DRY_RUN:-}" ]; then
  for which in old new; do
    for v in "${kernels[@]}"; do
      IFS='|' read -r name _ _ builds <<< "$v"
      f=$(ls "$W/$which/$name/"*.cu 2>/dev/null | head -1); [ -n "$f" ] || continue
      echo "$which $name: persistent $(grep -c 'tile_1 += ' "$f"), bands $(grep -o 'in [0-9]* bands of [0-9]* columns' "$f" | head -1), TMA band buffers $(grep -o 'through [0-9] band buffer' "$f" | head -1), TMA stores $(grep -c 'tmaStore<2>(' "$f"), 16-byte thread stores $(grep -c 'copyVector<16>(&C\[' "$f")" >> "$O/verify.log"
    done
  done
  stage_cuda_changed s_s4p_4096 s_default_4096 v_default
fi
step built
stage_verify 160 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log" 2>/dev/null) verified outputs (9 expected)" | tee -a "$O/verify.log"
step verified
[ -n "${STAGE_DRY_RUN:-}" ] || wait
cat "$W"/gemm-build-*.log 2>/dev/null | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 250 "gemm bench"; then
  xl "$O/gemm.log" env $GEMM_ENV timeout $(left 325) python3 "$P/gemm_graph_bench.py" $SHAPES
  step "gemm bench"
fi
stage_sanitize 380 395 v_tma v_tma_tn v_tma_two
step sanitized
if ! late 400 "gemm bench old"; then
  xl "$O/gemm-old.log" env $GEMM_OLD timeout $(left 435) python3 "$P/gemm_graph_bench.py" $SHAPES
  step "gemm bench old"
fi
stage_sass 0 s_s4p_4096
step sass
step done
grep "PASS .* verified" "$O/verify.log" 2>/dev/null; grep -E "CUDA|bands|FAIL" "$O/verify.log" 2>/dev/null
grep -E "geometric|lowest" "$O/gemm.log" "$O/gemm-old.log" 2>/dev/null

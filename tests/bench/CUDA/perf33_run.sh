#!/bin/bash
# perf33's GPU call (issue 14), staged by perf33_stage.sh as S/go.sh next to
# xz-compressed old (main before the branch) and new tlc-build binaries.
# Run from the repository root on the GPU machine, at most 6 minutes:
#   OUT=$OUT bash build-h200-perf33/go.sh
# Later steps are skipped past their deadlines (the whole by 345 s), and the
# most important figures come first; every log is written as it goes, so a
# killed call still returns what it wrote. Logs in $OUT:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     the changed kernels, old and new, at ragged sizes on the
#                  GPU against the CPU target (tlc-run --verify): causal
#                  attention D64 (the split mask loop now by default) with
#                  128- and 64-wide key blocks and S = 77, causal D128 and
#                  fwd D128 (Q's descriptor sums), the single-role
#                  (tl.disable_warp_specialized) GEMMs NN f16 / TN bf16 and
#                  single-role causal attention (the hoisted broadcast)
#   fa.log         fa_ws_bench.py, B8 H32 S4096: old and new causal D64 (the
#                  changed default), causal D128, fwd D64 and D128 (Q's
#                  descriptors by wgmmaDescriptorAdd), each pair twice in
#                  alternating order, next to SDPA's cuDNN and flash back
#                  ends in the same process
#   gemm.log       gemm_graph_bench.py with the new build, CONFIGS=
#                  uniform,skinny_best: f16/bf16 NN/TN at 4096^3, 8192^3,
#                  8192x8192x1024, 16384x16384x4096 and 16x8192x8192, each
#                  next to torch.matmul (cuBLAS), best-per-case geomean
#   gemm-sweep-8192.log  the same bench at 8192^3 and 8192 x 8192 x 1024
#                  f16 NN over CONFIGS=sweep
#                  (4 stages, TMA store, not persistent, panels 4 / 16,
#                  256 x 128): data for the next 8192^3 lever
#   single.log     the single-role 4096^3 GEMM old vs new, tlc-run --bench
#   sass.log       sass_hot_loop.py (cuobjdump): the changed kernels' hot
#                  loops, old next to new (SHFL and R2UR per iteration)
#   sanitizer.log  compute-sanitizer memcheck + racecheck of the small new
#                  causal D64 (S = 77) and D128 attention and the
#                  single-role GEMM
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf33 345
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
nows="--pass-config=tl.disable_warp_specialized=True"
# name | file | bindings | which builds (old new, or new); v_* are verified
# against the CPU target.
kernels=(
  "v_fac_d64|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 $t256|old new"
  "v_fac_d64_n64|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=3|old new"
  "v_fac_d64_s77|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 $t256|old new"
  "v_nows_nn_f16|$hg|-DM=1000 -DN=1000 -DK=328 -Dnum_stages=3 $nows|old new"
  "v_nows_tn_bf16|$hg|-DM=376 -DN=600 -DK=200 -Dnum_stages=3 -Dtrans_B=True -Ddtype=T.bfloat16 $nows|old new"
  "v_nows_fac_d64|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=200 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2 $nows|old new"
  "v_fac_d128|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=128 $t256|old new"
  "v_fa_d128|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t256|old new"
  "fac_d64|$fac|$big -Ddim=64 $t256|old new"
  "fac_d128|$fac|$big -Ddim=128 $t256|old new"
  "fa_d64|$fa|$big -Ddim=64 $t256|old new"
  "fa_d128|$fa|$big -Ddim=128 $t256|old new"
  "s_nows_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=3 $nows|old new"
)
# The bench GEMMs into the new build's cache, 8 processes, meanwhile.
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf33 CONFIGS=uniform,skinny_best"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096 skinny"
for i in $(seq 0 7); do
  env $GEMM_ENV python3 "$P/gemm_graph_bench.py" --build-only --shard "$i/8" $SHAPES > "$W/gemm-build-$i.log" 2>&1 &
done
# 8192^3 and 8192 x 8192 x 1024 f16 NN over the existing levers (stages, TMA store, persistence,
# rasterisation panels, 256 x 128), for the next GEMM change.
SWEEP_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf33 CONFIGS=sweep DTYPES=f16 LAYOUTS=NN"
for i in 0 1; do
  env $SWEEP_ENV python3 "$P/gemm_graph_bench.py" --build-only --shard "$i/2" 8192 8192x8192x1024 > "$W/gemm-build-sweep-$i.log" 2>&1 &
done
stage_build 8
for which in old new; do
  grep -q "all true here" "$W/$which/fac_d64/"*.cu && echo "$which fac_d64: split mask loop" >> "$O/verify.log" \
    || echo "$which fac_d64: mask every iteration" >> "$O/verify.log"
done
step built
stage_verify 150 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (16 expected)" | tee -a "$O/verify.log"
step verified
# Attention: each kernel old and new in alternating order (causal D64
# first: the changed default), each next to SDPA cuDNN / flash.
mkdir -p "$W/bench"; B=$W/bench; dirs=()
for name in fac_d64 fac_d128 fa_d64 fa_d128; do
  for which in old new; do ln -sfn "$W/$which/$name" "$B/${which}_$name"; done
  dirs+=("$B/old_$name" "$B/new_$name" "$B/new_$name" "$B/old_$name")
done
timeout $(left 210) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" \
  "${dirs[@]}" > "$O/fa.log" 2>&1
step "fa bench"
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 230 "gemm bench"; then
  env $GEMM_ENV timeout $(left 300) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm.log" 2>&1
  step "gemm bench"
fi
if ! late 290 "8192 sweep"; then
  env $SWEEP_ENV timeout $(left 322) python3 "$P/gemm_graph_bench.py" 8192 8192x8192x1024 > "$O/gemm-sweep-8192.log" 2>&1
  step "8192 sweep"
fi
if ! late 325 "single-role bench"; then
  for r in 1 2; do for which in old new; do
    echo "$r $which s_nows_4096 $(timeout 15 "$RUN" "$W/$which/s_nows_4096" --device cuda --bench --bench-runs=30 2>&1 | grep -i median | tr '\n' ' ')" >> "$O/single.log"
  done; done
  step "single-role bench"
fi
stage_sass 0 s_nows_4096 fac_d64 fac_d128 fa_d128
stage_sanitize 342 352 v_fac_d64_s77 v_nows_tn_bf16 v_fac_d128
step done
grep "PASS .* verified" "$O/verify.log"; tail -4 "$O/gemm.log" 2>/dev/null; grep -iE "fac_d64|cudnn" "$O/fa.log" | head -8

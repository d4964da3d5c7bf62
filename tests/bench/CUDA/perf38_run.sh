#!/bin/bash
# perf38's GPU call (issue 14), staged by perf38_stage.sh as S/go.sh next
# to xz-compressed old (main before perf38) and new tlc-build binaries.
# From the repository root on the GPU machine, at most 7 minutes:
#   OUT=$OUT bash build-h200-perf38/go.sh
# Later steps are skipped past their deadlines (the whole by 400 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify): every path perf38 changed, new
#                  (and old where it builds): ping-pong on one block at 3
#                  stages (old: "internal error"), 128 x 128 at 3 stages
#                  (ping-pong by default now), the persistent 4-stage GEMM
#                  storing from registers, tlc.gemm_cluster with the TMA
#                  store, a program's own clusters (old: refused), attention
#                  at fa_tiling.py's tilings (non-causal D64 192 x 128,
#                  causal D64 / D128 128 x 128); then which kernels' CUDA
#                  changed old vs new
#   fa.log         fa_ws_bench.py, B8 H32 S4096, SDPA cuDNN / flash in the
#                  same process: non-causal D64 old default (128 x 128) vs
#                  fa_tiling.py's (192 x 128), three alternating rounds;
#                  causal D64, causal D128, non-causal D128 at the rule's
#                  128 x 128, old and new
#   gemm.log       gemm_graph_bench.py CONFIGS=perf38 with the new build
#                  (default, 4 stages, 4 stages persistent from registers,
#                  128 x 128 at 3 stages ping-pong, at 4), next to
#                  torch.matmul; gemm-old.log: the 128 x 128 3-stage and
#                  default rows with the old build (CONFIGS=perf38old)
#   sass.log       sass_hot_loop.py of the 4096^3 GEMMs (4 stages, one tile
#                  a block vs persistent from registers) and the non-causal
#                  D64 192 x 128 kernel
#   sanitizer.log  compute-sanitizer memcheck + racecheck: ping-pong on one
#                  block, the persistent 4-stage GEMM, the program-clustered
#                  GEMM, non-causal D64 192 x 128 at S = 333
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf38 400
hg=$P/hopper_gemm.py; fac=$P/flash_attention_causal.py; pcl=$P/program_cluster_gemm.py
m192=$(python3 "$P/fa_tiling.py" --dim 64 --causal 0)
c64=$(python3 "$P/fa_tiling.py" --dim 64 --causal 1)
c128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 1)
n128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 0)
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
echo "fa_tiling: non-causal D64 $m192 | causal D64 $c64 | causal D128 $c128 | non-causal D128 $n128" >> "$O/verify.log"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
nc="-Dis_causal=False"
PP1="-DM=376 -DN=600 -DK=328 -Dthreads=128 -Dblock_N=128 -Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=3"
PC="--pass-config=tlc.persistent=True"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_gemm_pp_one|$hg|$PP1 $PC --pass-config=tlc.num_sms=1 --pass-config=tlc.gemm_pingpong=True|new"
  "v_gemm_pp_s3|$hg|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=3 --pass-config=tlc.num_sms=4|old new"
  "v_gemm_direct|$hg|-DM=1000 -DN=1000 -DK=328 -Dnum_stages=4 $PC --pass-config=tlc.num_sms=4|new"
  "v_gemm_direct_tn|$hg|-DM=376 -DN=600 -DK=456 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 $PC --pass-config=tlc.num_sms=1|new"
  "v_gemm_cl_store|$hg|-DM=1000 -DN=1000 -DK=200 --pass-config=tlc.gemm_cluster=True --pass-config=tlc.num_sms=2|old new"
  "v_prog_cluster|$pcl|-DM=376 -DN=1000 -DK=200|new"
  "v_prog_cluster_st|$pcl|-DM=376 -DN=1000 -DK=200 --pass-config=tlc.tma_store=True|new"
  "v_facn_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $nc $m192|old new"
  "v_facn_d64_s333|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 $nc $m192|new"
  "v_fac_d64_s333|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=64 $c64|old new"
  "v_fac_d128_s333|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $c128|old new"
  "v_facn_d128_s333|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $nc $n128|old new"
  "s_w4_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4|old new"
  "s_w4p_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4 $PC|new"
  "s_w3_4096|$hg|-DM=4096 -DN=4096 -DK=4096|old new"
  "s_pp3_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=3|old new"
  "facn_d64|$fac|$big -Ddim=64 $nc $t256|old new"
  "m192_facn_d64|$fac|$big -Ddim=64 $nc $m192|new"
  "fac_d64|$fac|$big -Ddim=64 $c64|old new"
  "fac_d128|$fac|$big -Ddim=128 $c128|old new"
  "facn_d128|$fac|$big -Ddim=128 $nc $n128|old new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf38 CONFIGS=perf38"
GEMM_OLD="TLC_BUILD=$W/bin/tlc-build-old TLC_CACHE_DIR=/tmp/tlc-cache-perf38-old CONFIGS=perf38old"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
# The bench GEMMs into the builds' caches (5 + 1 processes, until 200 s)
# while the kernels are built and verified; the timed runs build the rest.
stage_prebuild "" 5 200 "$GEMM_ENV" $SHAPES
stage_prebuild old 1 200 "$GEMM_OLD" $SHAPES
stage_build 8
for which in old new; do
  for name in v_gemm_pp_s3 v_gemm_cl_store; do
    [ -d "$W/$which/$name" ] || continue
    f=$(ls "$W/$which/$name/"*.cu | head -1)
    echo "$which $name: ping-pong $(grep -c '+= 2 \* gridDim.x' "$f"), TMA store $(grep -c 'tmaStore<2>(' "$f"), $(grep -o '__launch_bounds__([0-9, ]*)' "$f")" >> "$O/verify.log"
  done
done
f=$(ls "$W/new/v_gemm_direct/"*.cu | head -1)
echo "new v_gemm_direct: persistent $(grep -c 'tile_1 += gridDim.x' "$f"), TMA store $(grep -c 'tmaStore<2>(' "$f")" >> "$O/verify.log"
# Generated CUDA old vs new: s_pp3_4096 (ping-pong now) differs; the
# attention kernels and the 128 x 256 GEMMs are left alone (identical).
stage_cuda_changed s_w4_4096 s_w3_4096 s_pp3_4096 facn_d64 fac_d64 fac_d128 facn_d128
step built
stage_verify 190 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (18 expected)" | tee -a "$O/verify.log"
step verified
# Attention: non-causal D64 old default vs the rule's 192 x 128, three
# alternating rounds; the unchanged tilings old and new once each.
B=$W/bench; mkdir -p "$B"; dirs=()
lnk() { ln -sfn "$W/$1/$2" "$B/$3"; }
lnk old facn_d64 old_facn_d64; lnk new m192_facn_d64 m192_facn_d64
dirs+=("$B/old_facn_d64" "$B/m192_facn_d64" "$B/m192_facn_d64" "$B/old_facn_d64" "$B/old_facn_d64" "$B/m192_facn_d64")
for n in fac_d64 fac_d128 facn_d128; do lnk old $n old_$n; lnk new $n new_$n; dirs+=("$B/old_$n" "$B/new_$n"); done
if ! late 215 "fa bench"; then
  timeout $(left 290) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 290 "gemm bench"; then
  env $GEMM_ENV timeout $(left 360) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm.log" 2>&1
  step "gemm bench"
fi
if ! late 330 "gemm bench old"; then
  env $GEMM_OLD timeout $(left 375) python3 "$P/gemm_graph_bench.py" 4096 8192x8192x1024 > "$O/gemm-old.log" 2>&1
  step "gemm bench old"
fi
for v in old/s_w4_4096 new/s_w4p_4096 new/m192_facn_d64; do
  [ -d "$W/$v" ] && python3 "$P/sass_hot_loop.py" "$W/$v/"*.cubin 2>&1 | sed "s|^== |== $v |" >> "$O/sass.log"
done
step sass
stage_sanitize 385 398 v_gemm_pp_one v_gemm_direct v_prog_cluster v_facn_d64_s333
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "CUDA|ping-pong|persistent|fa_tiling|FAIL" "$O/verify.log"
grep -E "_fac|_facn" "$O/fa.log" | head -30; grep -E "geometric|lowest" "$O/gemm.log"

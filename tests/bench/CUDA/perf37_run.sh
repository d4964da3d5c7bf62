#!/bin/bash
# perf37's GPU call (issue 14), staged by perf37_stage.sh as S/go.sh next
# to xz-compressed old (main before perf37) and new tlc-build binaries.
# From the repository root on the GPU machine, at most 7 minutes:
#   OUT=$OUT bash build-h200-perf37/go.sh
# Later steps are skipped past their deadlines (the whole by 420 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify), old and new: GEMMs whose epilogue is
#                  now a TMA store with its read deferred by default
#                  (persistent, >= 8 tiles a multiprocessor: tlc.num_sms
#                  shrinks the device), 128 x 256 and 128 x 128 ping-pong;
#                  causal D128 with the split loop (S = 333 / 1000, 128 x
#                  128 and 128 x 64, persistent, =branch); the non-causal
#                  D64 candidates (192 x 128 tiles of three consumer
#                  warpgroups, the softmax overlap, the warpgroups' ping-
#                  pong); then which kernels
#                  changed (generated CUDA old vs new)
#   fa.log         fa_ws_bench.py, B8 H32 S4096, SDPA cuDNN / flash in the
#                  same process: causal D128 old / new (split) / new with
#                  tlc.split_masks=branch, three alternating rounds;
#                  non-causal D64 default / 192 x 128 / overlap / ping-pong
#                  / 3 stages, two rounds; causal D64 default / 192 x 128
#   gemm.log       gemm_graph_bench.py CONFIGS=perf37 with the new build:
#                  the default (TMA store, deferred read, where the rule
#                  holds) and tlc.tma_store=False (the threads' stores, the
#                  old default) per tiling, next to torch.matmul
#   sass.log       sass_hot_loop.py --all-loops of causal D128 old vs new
#                  (the split: an all-true loop without FSEL), non-causal
#                  D64 default and 192 x 128
#   sanitizer.log  compute-sanitizer memcheck + racecheck: the ping-pong
#                  GEMM with the default TMA store, causal D128 S = 333,
#                  non-causal D64 192 x 128 S = 333
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf37 420
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
m192="-Dblock_M=192 -Dblock_N=128 -Dthreads=384 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
pp="-Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
nc="-Dis_causal=False"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_gemm_w_nn_f16|$hg|-DM=1000 -DN=1000 -DK=264 --pass-config=tlc.num_sms=4|old new"
  "v_gemm_pp_tn_bf16|$hg|-DM=1000 -DN=1000 -DK=328 $pp -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=4|old new"
  "v_gemm_w_sms32|$hg|-DM=3000 -DN=2900 -DK=200 --pass-config=tlc.num_sms=32|old new"
  "v_fac_d128|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256|old new"
  "v_fac_d128_s1000|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=128 $t256|old new"
  "v_fac_d128_n64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=128 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2|old new"
  "v_pfac_d128|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256 --pass-config=tlc.persistent_attention=True --pass-config=tlc.num_sms=4|new"
  "v_fac_d128_br|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=128 $t256 --pass-config=tlc.split_masks=branch|new"
  "v_facn_d64_m192|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $nc $m192|new"
  "v_facn_d64_m192_s333|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 $nc $m192|new"
  "v_fac_d64_m192|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $m192|new"
  "v_facn_d64_ov|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $nc $t256 --pass-config=tlc.ws_overlap=True|new"
  "v_facn_d64_pp|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $nc $t256 --pass-config=tlc.ws_pingpong=True|new"
  "s_wide_4096|$hg|-DM=4096 -DN=4096 -DK=4096|old new"
  "s_pp_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $pp|old new"
  "s_wide_8192x1024|$hg|-DM=8192 -DN=8192 -DK=1024|old new"
  "fac_d128|$fac|$big -Ddim=128 $t256|old new"
  "br_fac_d128|$fac|$big -Ddim=128 $t256 --pass-config=tlc.split_masks=branch|new"
  "fac_d64|$fac|$big -Ddim=64 $t256|old new"
  "m192_fac_d64|$fac|$big -Ddim=64 $m192|new"
  "facn_d64|$fac|$big -Ddim=64 $nc $t256|old new"
  "m192_facn_d64|$fac|$big -Ddim=64 $nc $m192|new"
  "ov_facn_d64|$fac|$big -Ddim=64 $nc $t256 --pass-config=tlc.ws_overlap=True|new"
  "pp_facn_d64|$fac|$big -Ddim=64 $nc $t256 --pass-config=tlc.ws_pingpong=True|new"
  "st3_facn_d64|$fac|$big -Ddim=64 $nc -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=3|new"
  "facn_d128|$fac|$big -Ddim=128 $nc $t256|old new"
  "fa_d64|$fa|$big -Ddim=64 $t256|old new"
  "fa_d128|$fa|$big -Ddim=128 $t256|old new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf37 CONFIGS=perf37"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
# The bench GEMMs into the new build's cache (6 processes, until 200 s)
# while the kernels are built and verified; the timed run builds the rest.
stage_prebuild "" 6 200 "$GEMM_ENV" $SHAPES
stage_build 8
for which in old new; do
  for name in v_gemm_w_nn_f16 v_gemm_pp_tn_bf16 v_gemm_w_sms32; do
    grep -q "the copy engine read the previous" "$W/$which/$name/"*.cu && echo "$which $name: TMA store, read deferred" >> "$O/verify.log" \
      || echo "$which $name: the threads' stores" >> "$O/verify.log"
  done
  grep -q "not all true from here on" "$W/$which/v_fac_d128/"*.cu && echo "$which v_fac_d128: causal loop split" >> "$O/verify.log" \
    || echo "$which v_fac_d128: causal loop NOT split" >> "$O/verify.log"
done
# Generated CUDA old vs new: s_wide_8192x1024 (TMA store by default) and
# fac_d128 (split loop) differ, the rest are left alone (identical).
stage_cuda_changed s_wide_4096 s_pp_4096 s_wide_8192x1024 fac_d128 fac_d64 facn_d64 facn_d128 fa_d64 fa_d128
step built
stage_verify 190 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (19 expected)" | tee -a "$O/verify.log"
step verified
# Attention first (the split and the D64 candidates), then the GEMMs.
B=$W/bench; mkdir -p "$B"; dirs=()
lnk() { ln -sfn "$W/$1/$2" "$B/$3"; }
lnk old fac_d128 old_fac_d128; lnk new fac_d128 split_fac_d128; lnk new br_fac_d128 br_fac_d128
dirs+=("$B/old_fac_d128" "$B/split_fac_d128" "$B/br_fac_d128" "$B/br_fac_d128" "$B/split_fac_d128" "$B/old_fac_d128"
       "$B/old_fac_d128" "$B/split_fac_d128" "$B/br_fac_d128")
lnk old facn_d64 old_facn_d64
for v in m192 ov pp st3; do lnk new ${v}_facn_d64 ${v}_facn_d64; done
dirs+=("$B/old_facn_d64" "$B/m192_facn_d64" "$B/ov_facn_d64" "$B/pp_facn_d64" "$B/st3_facn_d64"
       "$B/st3_facn_d64" "$B/pp_facn_d64" "$B/ov_facn_d64" "$B/m192_facn_d64" "$B/old_facn_d64")
lnk old fac_d64 old_fac_d64; lnk new m192_fac_d64 m192_fac_d64
dirs+=("$B/old_fac_d64" "$B/m192_fac_d64" "$B/m192_fac_d64" "$B/old_fac_d64")
if ! late 215 "fa bench"; then
  timeout $(left 300) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 300 "gemm bench"; then
  env $GEMM_ENV timeout $(left 390) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm.log" 2>&1
  step "gemm bench"
fi
for which in old new; do
  for name in fac_d128 facn_d64; do
    [ -d "$W/$which/$name" ] && python3 "$P/sass_hot_loop.py" --all-loops "$W/$which/$name/"*.cubin 2>&1 | sed "s|^== |== $which $name |" >> "$O/sass.log"
  done
done
python3 "$P/sass_hot_loop.py" --all-loops "$W/new/m192_facn_d64/"*.cubin 2>&1 | sed "s|^== |== new m192_facn_d64 |" >> "$O/sass.log"
step sass
stage_sanitize 400 415 v_gemm_pp_tn_bf16 v_fac_d128 v_facn_d64_m192_s333
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "CUDA|split|stores|deferred" "$O/verify.log"
grep -E "_fac|_facn" "$O/fa.log" | head -30; grep -E "geometric|lowest" "$O/gemm.log"

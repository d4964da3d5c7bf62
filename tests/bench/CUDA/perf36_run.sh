#!/bin/bash
# perf36's GPU call (issue 14), staged by perf36_stage.sh as S/go.sh next
# to xz-compressed old (main before perf36) and new tlc-build binaries.
# From the repository root on the GPU machine, at most 7 minutes:
#   OUT=$OUT bash build-h200-perf36/go.sh
# Later steps are skipped past their deadlines (the whole by 420 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify), old and new: the 1-D bulk load
#                  (issue 2529's other half: a ragged last block, a
#                  1-element thread tail, a misaligned start, a start
#                  before the tensor, f16 with two loads; old = the
#                  threads' loads), the bulk store without the doubled
#                  barriers, attention with Q by one TMA load (fwd and
#                  causal, D64 / D128, non-causal S = 77, one consumer
#                  warpgroup at 128 threads; persistent: Q by the threads)
#   fa.log         fa_ws_bench.py, B8 H32 S4096: old (Q by the threads) and
#                  new (Q by TMA), flash_attention_fwd.py and _causal.py
#                  (causal and not), D64 / D128, each three times in
#                  alternating order (old new new old old new), SDPA cuDNN
#                  / flash in the same process
#   bulk-bench.log tlc-run --bench of the 1-D bulk load (1 M f32, 1024-
#                  element tiles), old (threads' loads) vs new, twice
#   gemm.log       the GEMMs: none is affected (their generated CUDA old vs
#                  new compared here too), 4096^3 f16 NN at 128 x 256 and
#                  ping-pong timed old vs new by tlc-run --bench
#   sass.log       sass_hot_loop.py of attention old vs new (fwd D128,
#                  causal D64)
#   sanitizer.log  compute-sanitizer memcheck + racecheck: the f16 bulk
#                  load twice, causal D64 with Q by TMA (warp-specialised),
#                  fwd at 128 threads (single-role: thread 0 issues Q)
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf36 420
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
bl=$P/bulk-load-1d.py; bs=$P/bulk-store-1d.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
pp="-Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_bload_f32|$bl||old new"
  "v_bload_tail|$bl|-Dn=1001|old new"
  "v_bload_shift|$bl|-Dn=1001 -Dshift=1|old new"
  "v_bload_neg|$bl|-Dshift=-3|old new"
  "v_bload_f16_twice|$bl|-Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True|old new"
  "v_bstore_f16_twice|$bs|-Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True|old new"
  "v_fa_d64|$fa|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256|old new"
  "v_fa_d128|$fa|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256|old new"
  "v_fac_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256|old new"
  "v_fac_d128|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256|old new"
  "v_facn_d64_s77|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 -Dis_causal=False $t256|old new"
  "v_fa_t128|$fa|-Dbatch=1 -Dheads=3 -Dseq_len=333 -Ddim=64 -Dblock_M=64 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2|old new"
  "v_pfac_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256 --pass-config=tlc.persistent_attention=True --pass-config=tlc.num_sms=20|new"
  "s_bload|$bl|-Dn=1048576 -Dblock=1024|old new"
  "s_wide_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4|old new"
  "s_pp_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $pp|old new"
  "fa_d64|$fa|$big -Ddim=64 $t256|old new"
  "fa_d128|$fa|$big -Ddim=128 $t256|old new"
  "fac_d64|$fac|$big -Ddim=64 $t256|old new"
  "fac_d128|$fac|$big -Ddim=128 $t256|old new"
  "facn_d64|$fac|$big -Ddim=64 -Dis_causal=False $t256|old new"
  "facn_d128|$fac|$big -Ddim=128 -Dis_causal=False $t256|old new"
)
stage_build 8
for which in old new; do
  grep -q "issued by the producer warpgroup" "$W/$which/v_fac_d64/"*.cu && echo "$which v_fac_d64: Q by TMA (producer)" >> "$O/verify.log" \
    || echo "$which v_fac_d64: Q by the threads" >> "$O/verify.log"
  grep -q "one load completing on an mbarrier" "$W/$which/v_fa_t128/"*.cu && echo "$which v_fa_t128: Q by TMA (thread 0)" >> "$O/verify.log" \
    || echo "$which v_fa_t128: Q by the threads" >> "$O/verify.log"
  grep -q "bulkLoad" "$W/$which/v_bload_f32/"*.cu && echo "$which v_bload_f32: bulk load" >> "$O/verify.log" \
    || echo "$which v_bload_f32: the threads' loads" >> "$O/verify.log"
done
for name in s_wide_4096 s_pp_4096; do
  if ! [ -f "$W/old/$name/matmul.cu" ] || ! [ -f "$W/new/$name/matmul.cu" ]; then echo "$name: not built" >> "$O/gemm.log"
  elif cmp -s "$W/old/$name/matmul.cu" "$W/new/$name/matmul.cu"; then echo "$name: old and new CUDA identical" >> "$O/gemm.log"
  else echo "$name: old and new CUDA DIFFER" >> "$O/gemm.log"; fi
done
step built
stage_verify 200 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (29 expected)" | tee -a "$O/verify.log"
step verified
# Attention: each pair three times in alternating order (perf35's H100 run
# spread up to 5 % between rounds of the same kernel).
B=$W/bench; mkdir -p "$B"; dirs=()
for name in fac_d64 fac_d128 facn_d64 facn_d128 fa_d64 fa_d128; do
  ln -sfn "$W/old/$name" "$B/old_$name"; ln -sfn "$W/new/$name" "$B/new_$name"
  dirs+=("$B/old_$name" "$B/new_$name" "$B/new_$name" "$B/old_$name" "$B/old_$name" "$B/new_$name")
done
if ! late 230 "fa bench"; then
  timeout $(left 360) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
for r in 1 2; do for which in old new; do
  late 375 "bulk bench" && break 2
  echo "$r $which s_bload $(timeout 10 "$RUN" "$W/$which/s_bload" --device cuda --bench --bench-runs=30 2>&1 | grep -i median | tr '\n' ' ')" >> "$O/bulk-bench.log"
done; done
for which in old new; do for name in s_wide_4096 s_pp_4096; do
  late 385 "gemm bench" && break 2
  echo "$which $name $(timeout 10 "$RUN" "$W/$which/$name" --device cuda --bench --bench-runs=20 2>&1 | grep -i median | tr '\n' ' ')" >> "$O/gemm.log"
done; done
step benches
stage_sass 0 fa_d128 fac_d64
step sass
stage_sanitize 400 415 v_bload_f16_twice v_fac_d64 v_fa_t128
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "old_|new_" "$O/fa.log" | head -24
cat "$O/gemm.log" "$O/bulk-bench.log" 2>/dev/null

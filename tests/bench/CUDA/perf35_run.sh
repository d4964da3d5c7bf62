#!/bin/bash
# perf35's GPU call (issue 14), staged by perf35_stage.sh as S/go.sh next
# to xz-compressed old (main before perf35) and new tlc-build binaries. It
# replaces perf34's stage, which was never run. From the repository root on
# the GPU machine, at most 8 minutes:
#   OUT=$OUT bash build-h200-perf35/go.sh
# Later steps are skipped past their deadlines (the whole by 450 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify), old and new: the 1-D bulk store
#                  (issue 2529: a ragged last block, a misaligned start, f16
#                  with two stores; old = the threads' stores), perf34's
#                  default constant panel divisors (ping-pong NN f16 and
#                  128 x 256 TN bf16, short last panels), perf34's options:
#                  persistent attention (causal D64 / D128, non-causal,
#                  S = 77) and the deferred TMA-store read; attention's O
#                  by TMA store (tlc.tma_store; persistent: fixed by perf35)
#   gemm.log       gemm_graph_bench.py with the new build, CONFIGS=
#                  perf34,skinny35: f16/bf16 NN/TN 4096^3, 8192^3,
#                  8192x8192x1024, 16384x16384x4096 (128 x 256, ping-pong,
#                  each with the TMA store, its read waited for or deferred)
#                  and 16x8192x8192 (64 x 128 at 6 / 8 stages, 64 x 64 at
#                  8 / 12), each next to torch.matmul
#   fa.log         fa_ws_bench.py, B8 H32 S4096: main's attention (old_*)
#                  next to the persistent one (pers_*; causal D64 also with
#                  groups of 8 and 32 pairs), causal and not, D64 / D128,
#                  causal with O by TMA store (tmast_*),
#                  each pair twice in alternating order, flash_attention_
#                  fwd.py (main's), SDPA cuDNN / flash in the same process
#   sass.log       sass_hot_loop.py --raw then cuobjdump: the 4096^3
#                  ping-pong GEMM, attention old vs persistent, bulk store
#   sanitizer.log  compute-sanitizer memcheck + racecheck: the f16 bulk
#                  store, persistent attention S = 77 and non-causal D128,
#                  the ping-pong GEMM with the deferred read
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf35 450
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
bs=$P/bulk-store-1d.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
pers="--pass-config=tlc.persistent_attention=True"
tsa="--pass-config=tlc.tma_store=True --pass-config=tlc.tma_store_async=True"
pp="-Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_bulk_f32|$bs||old new"
  "v_bulk_shift|$bs|-Dn=1001 -Dshift=1|old new"
  "v_bulk_tail|$bs|-Dn=1001|old new"
  "v_bulk_f16_twice|$bs|-Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True|old new"
  "v_pp_nn_f16|$hg|-DM=1400 -DN=600 -DK=200 $pp --pass-config=tlc.num_sms=8|old new"
  "v_wide_tn_bf16|$hg|-DM=1400 -DN=1000 -DK=328 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=6|old new"
  "v_pfac_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256 $pers --pass-config=tlc.num_sms=20|old new"
  "v_pfac_d128|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256 $pers --pass-config=tlc.num_sms=5|old new"
  "v_pfacn_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 -Dis_causal=False $t256 $pers --pass-config=tlc.num_sms=20 --pass-config=tlc.persistent_group=2|old new"
  "v_pfacn_d128|$fac|-Dbatch=1 -Dheads=3 -Dseq_len=333 -Ddim=128 -Dis_causal=False $t256 $pers --pass-config=tlc.num_sms=4|old new"
  "v_pfac_d64_s77|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 $t256 $pers --pass-config=tlc.num_sms=4|old new"
  "v_tpfac_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256 $pers --pass-config=tlc.tma_store=True --pass-config=tlc.num_sms=20|old new"
  "v_tfacn_d128|$fac|-Dbatch=1 -Dheads=3 -Dseq_len=333 -Ddim=128 -Dis_causal=False $t256 --pass-config=tlc.tma_store=True|old new"
  "v_tsa_wide_nn_f16|$hg|-DM=1400 -DN=1000 -DK=200 -Dnum_stages=3 $tsa --pass-config=tlc.num_sms=6|old new"
  "v_tsa_pp_tn_bf16|$hg|-DM=1400 -DN=600 -DK=328 $pp -Dtrans_B=True -Ddtype=T.bfloat16 $tsa --pass-config=tlc.num_sms=8|old new"
  "s_pp_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $pp|old new"
  "s_bulk|$bs|-Dn=1048576 -Dblock=1024|old new"
  "fac_d64|$fac|$big -Ddim=64 $t256|old"
  "fac_d128|$fac|$big -Ddim=128 $t256|old"
  "facn_d64|$fac|$big -Ddim=64 -Dis_causal=False $t256|old"
  "facn_d128|$fac|$big -Ddim=128 -Dis_causal=False $t256|old"
  "fa_d64|$fa|$big -Ddim=64 $t256|old"
  "fa_d128|$fa|$big -Ddim=128 $t256|old"
  "tfac_d64|$fac|$big -Ddim=64 $t256 --pass-config=tlc.tma_store=True|new"
  "tfac_d128|$fac|$big -Ddim=128 $t256 --pass-config=tlc.tma_store=True|new"
  "pfac_d64|$fac|$big -Ddim=64 $t256 $pers|new"
  "pfac_d64_g8|$fac|$big -Ddim=64 $t256 $pers --pass-config=tlc.persistent_group=8|new"
  "pfac_d64_g32|$fac|$big -Ddim=64 $t256 $pers --pass-config=tlc.persistent_group=32|new"
  "pfac_d128|$fac|$big -Ddim=128 $t256 $pers|new"
  "pfacn_d64|$fac|$big -Ddim=64 -Dis_causal=False $t256 $pers|new"
  "pfacn_d128|$fac|$big -Ddim=128 -Dis_causal=False $t256 $pers|new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf35 CONFIGS=perf34,skinny35"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096 skinny"
# The bench GEMMs into the new build's cache (8 processes, until 200 s)
# while the kernels are verified; the timed run builds what is left.
for i in $(seq 0 7); do
  env $GEMM_ENV timeout $(left 200) python3 "$P/gemm_graph_bench.py" --build-only --shard "$i/8" $SHAPES > "$W/gemm-build-$i.log" 2>&1 &
done
stage_build 8
for which in old new; do
  grep -q "the last query block first" "$W/$which/v_pfac_d64/"*.cu && echo "$which v_pfac_d64: persistent" >> "$O/verify.log" \
    || echo "$which v_pfac_d64: one tile a block" >> "$O/verify.log"
  grep -q "bulkStore" "$W/$which/v_bulk_f32/"*.cu && echo "$which v_bulk_f32: bulk store" >> "$O/verify.log" \
    || echo "$which v_bulk_f32: the threads' stores" >> "$O/verify.log"
  grep -q "the copy engine read the previous" "$W/$which/v_tsa_pp_tn_bf16/"*.cu && echo "$which v_tsa_pp_tn_bf16: TMA-store read deferred" >> "$O/verify.log" \
    || echo "$which v_tsa_pp_tn_bf16: TMA-store read NOT deferred" >> "$O/verify.log"
done
step built
stage_verify 170 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (32 expected)" | tee -a "$O/verify.log"
step verified
for r in 1 2; do for which in old new; do
  echo "$r $which s_bulk $(timeout 15 "$RUN" "$W/$which/s_bulk" --device cuda --bench --bench-runs=30 2>&1 | grep -i median | tr '\n' ' ')" >> "$O/bulk-bench.log"
done; done
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 215 "gemm bench"; then
  env $GEMM_ENV timeout $(left 320) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm.log" 2>&1
  step "gemm bench"
fi
# Attention: main's kernel and the persistent one, each pair twice in
# alternating order, causal D64 first.
B=$W/bench; mkdir -p "$B"; dirs=()
pair() { ln -sfn "$W/old/$1" "$B/old_$1"; ln -sfn "$W/new/$2" "$B/pers_$3"
  dirs+=("$B/old_$1" "$B/pers_$3" "$B/pers_$3" "$B/old_$1"); }
pair fac_d64 pfac_d64 fac_d64
pair fac_d128 pfac_d128 fac_d128
pair facn_d64 pfacn_d64 facn_d64
pair facn_d128 pfacn_d128 facn_d128
for name in fac_d64 fac_d128; do ln -sfn "$W/new/t$name" "$B/tmast_$name"; dirs+=("$B/tmast_$name"); done
for g in 8 32; do ln -sfn "$W/new/pfac_d64_g$g" "$B/pers_g${g}_fac_d64"; dirs+=("$B/pers_g${g}_fac_d64"); done
for name in fa_d64 fa_d128; do ln -sfn "$W/old/$name" "$B/old_$name"; dirs+=("$B/old_$name"); done
if ! late 330 "fa bench"; then
  timeout $(left 400) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
stage_sass 1 s_pp_4096 s_bulk fac_d64 pfac_d64 fac_d128 pfac_d128
step sass
stage_sanitize 430 445 v_bulk_f16_twice v_pfac_d64_s77 v_tsa_pp_tn_bf16 v_pfacn_d128
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "pers_|old_fac" "$O/fa.log" | head -12
tail -12 "$O/gemm.log" 2>/dev/null

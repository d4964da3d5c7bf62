#!/bin/bash
# perf34's GPU call (issue 14), staged by perf34_stage.sh as S/go.sh next
# to xz-compressed old (main) and new tlc-build binaries. Run from the
# repository root on the GPU machine, at most 6 minutes:
#   OUT=$OUT bash build-h200-perf34/go.sh
# Later steps are skipped past their deadlines (the whole by 345 s), the
# most important figures first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     the changed kernels at ragged sizes on the GPU against
#                  the CPU target (tlc-run --verify), old and new: the
#                  ping-pong and 128 x 256 GEMMs whose tile loop divides by
#                  constants (a short last panel), the persistent attention
#                  (tlc.persistent_attention: causal D64 / D128, non-causal,
#                  S = 77; old builds ignore the option: the baseline), and
#                  the deferred TMA-store read (tlc.tma_store_async)
#   fa.log         fa_ws_bench.py, B8 H32 S4096: main's attention (old_*)
#                  next to the persistent one (pers_*; D64 causal also with
#                  groups of 8 and 32 pairs), causal (fac), not causal
#                  through the same program (facn) and through
#                  flash_attention_fwd.py (fa, main's only), each pair twice
#                  in alternating order, SDPA cuDNN / flash in the process
#   gemm-new.log   gemm_graph_bench.py, CONFIGS=perf34,skinny_best, the
#                  issue's 20 cases (f16/bf16, NN/TN, 4096^3, 8192^3,
#                  8192x8192x1024, 16384x16384x4096, 16x8192x8192) next to
#                  torch.matmul; the TMA store with and without its read
#                  deferred
#   gemm-old.log   main's build, CONFIGS=uniform,skinny_best (main's
#                  figures: the same first two tilings)
#   sass.log       sass_hot_loop.py --raw then cuobjdump: the 4096^3
#                  ping-pong GEMM (I2F per tile), attention old vs persistent
#   sanitizer.log  compute-sanitizer memcheck + racecheck: persistent
#                  attention S = 77, ping-pong GEMM with the deferred read
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf34 345
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
pers="--pass-config=tlc.persistent_attention=True"
tsa="--pass-config=tlc.tma_store=True --pass-config=tlc.tma_store_async=True"
pp="-Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_pfac_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 $t256 $pers --pass-config=tlc.num_sms=20|old new"
  "v_pfac_d128|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=128 $t256 $pers --pass-config=tlc.num_sms=5|old new"
  "v_pfacn_d64|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=1000 -Ddim=64 -Dis_causal=False $t256 $pers --pass-config=tlc.num_sms=20 --pass-config=tlc.persistent_group=2|old new"
  "v_pfacn_d128|$fac|-Dbatch=1 -Dheads=3 -Dseq_len=333 -Ddim=128 -Dis_causal=False $t256 $pers --pass-config=tlc.num_sms=4|old new"
  "v_pfac_d64_s77|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 $t256 $pers --pass-config=tlc.num_sms=4|old new"
  "v_pp_nn_f16|$hg|-DM=1400 -DN=600 -DK=200 $pp --pass-config=tlc.num_sms=8|old new"
  "v_wide_tn_bf16|$hg|-DM=1400 -DN=1000 -DK=328 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=6|old new"
  "v_tsa_wide_nn_f16|$hg|-DM=1400 -DN=1000 -DK=200 -Dnum_stages=3 $tsa --pass-config=tlc.num_sms=6|new"
  "v_tsa_pp_tn_bf16|$hg|-DM=1400 -DN=600 -DK=328 $pp -Dtrans_B=True -Ddtype=T.bfloat16 $tsa --pass-config=tlc.num_sms=8|new"
  "s_pp_4096|$hg|-DM=4096 -DN=4096 -DK=4096 $pp|old new"
  "fac_d64|$fac|$big -Ddim=64 $t256|old"
  "fac_d128|$fac|$big -Ddim=128 $t256|old"
  "facn_d64|$fac|$big -Ddim=64 -Dis_causal=False $t256|old"
  "facn_d128|$fac|$big -Ddim=128 -Dis_causal=False $t256|old"
  "fa_d64|$fa|$big -Ddim=64 $t256|old"
  "fa_d128|$fa|$big -Ddim=128 $t256|old"
  "pfac_d64|$fac|$big -Ddim=64 $t256 $pers|new"
  "pfac_d64_g8|$fac|$big -Ddim=64 $t256 $pers --pass-config=tlc.persistent_group=8|new"
  "pfac_d64_g32|$fac|$big -Ddim=64 $t256 $pers --pass-config=tlc.persistent_group=32|new"
  "pfac_d128|$fac|$big -Ddim=128 $t256 $pers|new"
  "pfacn_d64|$fac|$big -Ddim=64 -Dis_causal=False $t256 $pers|new"
  "pfacn_d128|$fac|$big -Ddim=128 -Dis_causal=False $t256 $pers|new"
)
gemm_env() {
  local sets=uniform,skinny_best; [ "$1" = new ] && sets=perf34,skinny_best
  echo "TLC_BUILD=$W/bin/tlc-build-$1 TLC_CACHE_DIR=/tmp/tlc-cache-perf34-$1 CONFIGS=$sets"
}
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096 skinny"
stage_build 14
for which in old new; do
  grep -q "the last query block first" "$W/$which/pfac_d64/"*.cu 2>/dev/null && echo "$which pfac_d64: persistent" >> "$O/verify.log"
  grep -q "the last query block first" "$W/$which/v_pfac_d64/"*.cu && echo "$which v_pfac_d64: persistent" >> "$O/verify.log" \
    || echo "$which v_pfac_d64: one tile a block" >> "$O/verify.log"
done
for name in v_tsa_wide_nn_f16 v_tsa_pp_tn_bf16; do
  grep -q "the copy engine read the previous" "$W/new/$name/"*.cu && echo "new $name: TMA-store read deferred" >> "$O/verify.log" \
    || echo "new $name: TMA-store read NOT deferred" >> "$O/verify.log"
done
step built
# The bench GEMMs into each build's cache (8 + 4 processes, until 190 s)
# while the kernels are verified; the timed runs wait for them (and build
# what is left themselves).
for which in new old; do
  n=8; [ $which = old ] && n=4
  for i in $(seq 0 $((n - 1))); do
    env $(gemm_env $which) timeout $(left 190) python3 "$P/gemm_graph_bench.py" --build-only --shard "$i/$n" $SHAPES > "$W/gemm-build-$which-$i.log" 2>&1 &
  done
done
stage_verify 170 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (16 expected)" | tee -a "$O/verify.log"
step verified
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
# Attention: main's kernel and the persistent one, each pair twice in
# alternating order, causal D64 first.
B=$W/bench; mkdir -p "$B"; dirs=()
pair() { ln -sfn "$W/old/$1" "$B/old_$1"; ln -sfn "$W/new/$2" "$B/pers_$3"
  dirs+=("$B/old_$1" "$B/pers_$3" "$B/pers_$3" "$B/old_$1"); }
pair fac_d64 pfac_d64 fac_d64
pair fac_d128 pfac_d128 fac_d128
pair facn_d64 pfacn_d64 facn_d64
pair facn_d128 pfacn_d128 facn_d128
for g in 8 32; do ln -sfn "$W/new/pfac_d64_g$g" "$B/pers_g${g}_fac_d64"; dirs+=("$B/pers_g${g}_fac_d64"); done
for name in fa_d64 fa_d128; do ln -sfn "$W/old/$name" "$B/old_$name"; dirs+=("$B/old_$name"); done
timeout $(left 235) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
step "fa bench"
for which in new old; do
  late $([ $which = new ] && echo 240 || echo 295) "gemm bench $which" && continue
  env $(gemm_env $which) timeout $(left $([ $which = new ] && echo 300 || echo 330)) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm-$which.log" 2>&1
  step "gemm bench $which"
done
stage_sass 1 s_pp_4096 fac_d64 pfac_d64 fac_d128 pfac_d128
step sass
stage_sanitize 335 345 v_pfac_d64_s77 v_tsa_pp_tn_bf16 v_pfacn_d128
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "pers_|old_fac" "$O/fa.log" | head -12
tail -9 "$O/gemm-new.log" 2>/dev/null; tail -4 "$O/gemm-old.log" 2>/dev/null

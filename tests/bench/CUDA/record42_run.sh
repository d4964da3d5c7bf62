#!/bin/bash
# The forty-second session's figures-of-record call (issue 14), staged by
# record42_stage.sh as S/go.sh next to this tree's xz-compressed tlc-build.
# It measures main as it is, every goal shape next to its peer in the same
# process, so the figures can be quoted for the H200. From the repository
# root on the GPU machine, at most 9.5 minutes:
#   OUT=$OUT bash build-h200-record42/go.sh
# STAGE_DRY_RUN=1 prints the commands instead. Later steps are skipped past
# their deadlines (the whole by 560 s), the most important first. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify): the default GEMM NN f16, 4 stages
#                  persistent TN bf16, causal attention D64 and non-causal
#                  D128 at fa_tiling.py's tilings, fp8 e4m3 128 x 256
#                  (--accumulation C=456: tensor cores' 14-bit sums of K
#                  products)
#   fa.log         fa_ws_bench.py, B8 H32 S4096, causal and not, D64 and
#                  D128, two rounds, SDPA cuDNN / flash in the same process
#   gemm.log       gemm_graph_bench.py CONFIGS=record42,skinny_best: the
#                  four big shapes and the skinny one, NN/TN x f16/bf16,
#                  next to torch.matmul (default, deeper ring off, 4 stages
#                  persistent, 4 stages)
#   fp8.log        fp8_splitk_bench.py fp8-8192 vs torch._scaled_mm
#   skinny.log     gemmperf_bench.py skinny (REPS=1): split-K / stream-K
#   sanitizer.log  compute-sanitizer memcheck + racecheck of the default
#                  GEMM and causal attention D64
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/record42 560
hg=$P/hopper_gemm.py; fac=$P/flash_attention_causal.py; f8=$P/fp8_gemm.py
stage_fa_tilings
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
nc="-Dis_causal=False"
R="-DM=376 -DN=600 -DK=456"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_default|$hg|$R --pass-config=tlc.num_sms=4|new"
  "v_s4p_tn|$hg|-DM=1000 -DN=1000 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=4 --pass-config=tlc.persistent=True --pass-config=tlc.num_sms=4|new"
  "v_fac_d64_s333|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=64 $c64|new"
  "v_facn_d128_s333|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=128 $nc $n128|new"
  "v_fp8|$f8|$R -Dblock_N=256 -Dthreads=256|new|--accumulation C=456"
  "facn_d64|$fac|$big -Ddim=64 $nc $m192|new"
  "fac_d64|$fac|$big -Ddim=64 $c64|new"
  "fac_d128|$fac|$big -Ddim=128 $c128|new"
  "facn_d128|$fac|$big -Ddim=128 $nc $n128|new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-record42 CONFIGS=record42,skinny_best"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096 skinny"
# The bench GEMMs into the build cache (8 processes, until 220 s) while the
# kernels are built and verified; the timed run builds what is left.
stage_prebuild "" 8 220 "$GEMM_ENV" $SHAPES
stage_build 8
step built
stage_verify 200 new
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log" 2>/dev/null) verified outputs (5 expected)" | tee -a "$O/verify.log"
step verified
B=$W/bench; mkdir -p "$B"; dirs=()
for n in fac_d64 fac_d128 facn_d64 facn_d128; do
  ln -sfn "$W/new/$n" "$B/a_$n"; ln -sfn "$W/new/$n" "$B/b_$n"
  dirs+=("$B/a_$n" "$B/b_$n")
done
if ! late 230 "fa bench"; then
  xl "$O/fa.log" timeout $(left 300) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}"
  step "fa bench"
fi
[ -n "${STAGE_DRY_RUN:-}" ] || wait
cat "$W"/gemm-build-*.log 2>/dev/null | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 320 "gemm bench"; then
  xl "$O/gemm.log" env $GEMM_ENV timeout $(left 455) python3 "$P/gemm_graph_bench.py" $SHAPES
  step "gemm bench"
fi
if ! late 470 "fp8"; then
  xl "$O/fp8.log" env TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-record42 timeout $(left 500) python3 "$P/fp8_splitk_bench.py" fp8-8192
  step fp8
fi
if ! late 500 "skinny"; then
  xl "$O/skinny.log" env TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-record42 REPS=1 timeout $(left 535) python3 "$P/gemmperf_bench.py" skinny
  step skinny
fi
stage_sanitize 540 555 v_default v_fac_d64_s333
step done
grep "PASS .* verified" "$O/verify.log" 2>/dev/null; grep -E "FAIL" "$O/verify.log" 2>/dev/null
grep -E "_fac|_facn" "$O/fa.log" 2>/dev/null | head -30; grep -E "geometric|lowest" "$O/gemm.log" 2>/dev/null
grep -h 8192x8192x8192 "$O/fp8.log" 2>/dev/null; tail -5 "$O/skinny.log" 2>/dev/null

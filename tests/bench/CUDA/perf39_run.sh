#!/bin/bash
# perf39's GPU call (issue 14), staged by perf39_stage.sh as S/go.sh next
# to xz-compressed old (main before perf39) and new tlc-build binaries.
# From the repository root on the GPU machine, at most 7 minutes:
#   OUT=$OUT bash build-h200-perf39/go.sh
# Later steps are skipped past their deadlines (the whole by 420 s), the
# most important first; each log is written as it goes. Logs:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     at ragged sizes on the GPU against the CPU target
#                  (tlc-run --verify), new and old: tile-gemm-wide-n (8 x 1
#                  warps, m64n256) with tile-gemm-deepen-ring's 4th stage,
#                  with the persistent TMA-store epilogue (TN bf16), not
#                  warp-specialised, at 4 stages, 4 stages persistent from
#                  the registers, the 4th stage alone (Square), fp8 e4m3
#                  128 x 256; attention (untouched: CUDA identical old/new)
#                  at fa_tiling.py's tilings; then which kernels' CUDA
#                  changed old vs new, and each kernel's partition / stages
#   gemm.log       gemm_graph_bench.py CONFIGS=perf39 with the new build
#                  (default; wide off; deepen off; both off = main's
#                  default; 4 stages; 4 stages wide off) next to
#                  torch.matmul; gemm-old.log: main's default and 4 stages
#                  (CONFIGS=perf39old)
#   fa.log         fa_ws_bench.py, B8 H32 S4096, SDPA cuDNN / flash in the
#                  same process: causal D64 / D128, non-causal D64 (192 x
#                  128) / D128, old and new, two alternating rounds
#   fp8.log        fp8_splitk_bench.py fp8-8192 (new; fp8-old.log: main's):
#                  fp8 e4m3 8192^3 vs torch._scaled_mm (128 x 256 is wide
#                  now)
#   skinny.log     gemmperf_bench.py skinny (new, REPS=1): serial split-K,
#                  split-K / stream-K by atomics vs torch.matmul
#   sass.log       sass_hot_loop.py of the 4096^3 and 8192^3 GEMMs, old
#                  and new (HGMMA a k-step 8 -> 4)
#   sanitizer.log  compute-sanitizer memcheck + racecheck of the new wide +
#                  deep GEMM, the wide TMA-store GEMM, the wide persistent
#                  4-stage GEMM and the fp8 128 x 256 GEMM
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
source "$S/stage_common.sh"
stage_begin "$S" /tmp/perf39 420
hg=$P/hopper_gemm.py; fac=$P/flash_attention_causal.py; f8=$P/fp8_gemm.py
m192=$(python3 "$P/fa_tiling.py" --dim 64 --causal 0)
c64=$(python3 "$P/fa_tiling.py" --dim 64 --causal 1)
c128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 1)
n128=$(python3 "$P/fa_tiling.py" --dim 128 --causal 0)
echo "fa_tiling: non-causal D64 $m192 | causal D64 $c64 | causal D128 $c128 | non-causal D128 $n128" >> "$O/verify.log"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
nc="-Dis_causal=False"
R="-DM=376 -DN=600 -DK=456"
# name | file | bindings | builds; v_* verified against the CPU target.
kernels=(
  "v_wide_deep|$hg|$R --pass-config=tlc.num_sms=4|old new"
  "v_wide_store_tn|$hg|-DM=1000 -DN=1000 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=2|old new"
  "v_wide_nows|$hg|$R --pass-config=tl.disable_warp_specialized=True|old new"
  "v_wide_s4|$hg|$R -Dnum_stages=4|old new"
  "v_wide_s4p|$hg|$R -Dnum_stages=4 --pass-config=tlc.persistent=True --pass-config=tlc.num_sms=1|old new"
  "v_deep_square|$hg|$R -Dtrans_B=True --pass-config=tlc.num_sms=4 --pass-config=tlc.gemm_wide_n=False|new"
  "v_fp8_wide|$f8|$R -Dblock_N=256 -Dthreads=256|old new"
  "v_facn_d64_s333|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=333 -Ddim=64 $nc $m192|old new"
  "v_fac_d64_s333|$fac|-Dbatch=2 -Dheads=3 -Dseq_len=333 -Ddim=64 $c64|old new"
  "s_w3_4096|$hg|-DM=4096 -DN=4096 -DK=4096|old new"
  "s_w3_8192|$hg|-DM=8192 -DN=8192 -DK=8192 -Ddtype=T.bfloat16|old new"
  "facn_d64|$fac|$big -Ddim=64 $nc $m192|old new"
  "fac_d64|$fac|$big -Ddim=64 $c64|old new"
  "fac_d128|$fac|$big -Ddim=128 $c128|old new"
  "facn_d128|$fac|$big -Ddim=128 $nc $n128|old new"
)
GEMM_ENV="TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf39 CONFIGS=perf39"
GEMM_OLD="TLC_BUILD=$W/bin/tlc-build-old TLC_CACHE_DIR=/tmp/tlc-cache-perf39-old CONFIGS=perf39old"
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
# The bench GEMMs into the builds' caches (6 + 2 processes, until 200 s)
# while the kernels are built and verified; the timed runs build the rest.
stage_prebuild "" 6 200 "$GEMM_ENV" $SHAPES
stage_prebuild old 2 200 "$GEMM_OLD" $SHAPES
stage_build 8
for which in old new; do
  for v in "${kernels[@]}"; do
    IFS='|' read -r name _ _ builds <<< "$v"
    [[ $name == v_* || $name == s_* ]] || continue
    f=$(ls "$W/$which/$name/"*.cu 2>/dev/null | head -1); [ -n "$f" ] || continue
    echo "$which $name: $(grep -o 'wgmma.C · [0-9]×[0-9] warps' "$f" | head -1), $(grep -o 'num_stages = [0-9]*' "$f" | head -1), persistent $(grep -c 'tile_1 += ' "$f"), TMA store $(grep -c 'tmaStore<2>(' "$f")" >> "$O/verify.log"
  done
done
stage_cuda_changed facn_d64 fac_d64 fac_d128 facn_d128 s_w3_4096 s_w3_8192
step built
stage_verify 190 new old
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs (17 expected)" | tee -a "$O/verify.log"
step verified
# Attention: old and new of each tiling, two alternating rounds (the CUDA
# is identical: this measures the run-to-run spread next to the peers).
B=$W/bench; mkdir -p "$B"; dirs=()
for n in fac_d64 fac_d128 facn_d64 facn_d128; do
  ln -sfn "$W/old/$n" "$B/old_$n"; ln -sfn "$W/new/$n" "$B/new_$n"
  dirs+=("$B/old_$n" "$B/new_$n" "$B/new_$n" "$B/old_$n")
done
if ! late 200 "fa bench"; then
  timeout $(left 260) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
wait
cat "$W"/gemm-build-*.log | grep -i "fail" >> "$O/verify.log"
step gemm-built
if ! late 280 "gemm bench"; then
  env $GEMM_ENV timeout $(left 345) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm.log" 2>&1
  step "gemm bench"
fi
if ! late 330 "gemm bench old"; then
  env $GEMM_OLD timeout $(left 370) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm-old.log" 2>&1
  step "gemm bench old"
fi
if ! late 360 "fp8"; then
  env TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf39 timeout $(left 380) python3 "$P/fp8_splitk_bench.py" fp8-8192 > "$O/fp8.log" 2>&1
  env TLC_BUILD=$W/bin/tlc-build-old TLC_CACHE_DIR=/tmp/tlc-cache-perf39-old timeout $(left 395) python3 "$P/fp8_splitk_bench.py" fp8-8192 > "$O/fp8-old.log" 2>&1
  step fp8
fi
stage_sass 0 s_w3_4096 s_w3_8192
step sass
stage_sanitize 400 412 v_wide_deep v_wide_store_tn v_wide_s4p v_fp8_wide
step sanitized
if ! late 395 "skinny"; then
  env TLC_BUILD=$W/bin/tlc-build-new TLC_CACHE_DIR=/tmp/tlc-cache-perf39 REPS=1 timeout $(left 418) python3 "$P/gemmperf_bench.py" skinny > "$O/skinny.log" 2>&1
  step skinny
fi
step done
grep "PASS .* verified" "$O/verify.log"; grep -E "CUDA|warps|FAIL" "$O/verify.log"
grep -E "_fac|_facn" "$O/fa.log" | head -30; grep -E "geometric|lowest" "$O/gemm.log" "$O/gemm-old.log"
grep -h 8192x8192x8192 "$O/fp8.log" "$O/fp8-old.log"

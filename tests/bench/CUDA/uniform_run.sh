#!/bin/bash
# One GPU call for the warp-uniform warpgroup index (docs/perf/hopper.md,
# "wgmma descriptors on the uniform datapath"), staged by uniform_stage.sh
# as S/go.sh next to xz-compressed old and new tlc-build binaries. Run from
# the repository root on the GPU machine: OUT=$OUT bash S/go.sh (about 8
# minutes; later steps are skipped past 560 s). Logs in $OUT:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     old and new GEMMs (ping-pong, 128 x 256, TN bf16) and
#                  FlashAttention at ragged sizes, on the GPU against the
#                  CPU target (tlc-run --verify)
#   sass.log       sass_hot_loop.py: per kernel, the static counts read
#                  from the cubin (--raw, as on the development machine),
#                  then from cuobjdump the innermost loop holding
#                  an HGMMA, its instructions per iteration and opcode mix
#                  (R2UR, IMAD, UIADD3, HGMMA), old next to new: the 4096^3
#                  ping-pong and 128 x 256 GEMMs and the B8 H32 S4096
#                  attention kernels
#   gemm-old.log, gemm-new.log  gemm_graph_bench.py, CONFIGS=uniform, f16,
#                  NN and TN, 4096^3 .. 16384x16384x4096, next to
#                  torch.matmul (cuBLAS) in each run
#   fa.log         fa_ws_bench.py: old_* and new_* attention kernels (B8 H32
#                  S4096, D64 / D128, causal and not) in one process next to
#                  SDPA's cuDNN and flash back ends
#   sanitizer.log  compute-sanitizer memcheck and racecheck of the new
#                  small ping-pong GEMM and attention kernels
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
W=/tmp/uniform32; rm -rf "$W"; mkdir -p "$W/bin"
for b in tlc-build-old tlc-build-new tlc-run; do
  xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"
done
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so PYTHONPATH=$S PYTHONUNBUFFERED=1
RUN=$W/bin/tlc-run; P=$S/py
step() { echo "$(date +%T) ${SECONDS}s $*" >> "$O/steps.log"; }
late() { [ "$SECONDS" -gt "${1:-560}" ] && { step "skipped $2: ${SECONDS}s spent"; return 0; }; return 1; }
step start
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
  python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
hg=$P/hopper_gemm.py; fa=$P/flash_attention_fwd.py; fac=$P/flash_attention_causal.py
t256="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
# name | file | bindings; verified (v_*) against the CPU target, or only
# compiled for their SASS and timed (s_*, fa_*, fac_*).
kernels=(
  "v_pp_nn_f16|$hg|-DM=376 -DN=600 -DK=200 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 --pass-config=tlc.num_sms=2"
  "v_pp_tn_bf16|$hg|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=7"
  "v_wide_nn_f16|$hg|-DM=1000 -DN=1000 -DK=328 -Dnum_stages=4"
  "v_wide_tn_bf16|$hg|-DM=376 -DN=600 -DK=200 -Dnum_stages=3 -Dtrans_B=True -Ddtype=T.bfloat16"
  "v_fa_d64|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 $t256"
  "v_fac_d128|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t256"
  "v_fa_d64_seq77|$fa|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 $t256"
  "s_pp_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "s_wide_4096|$hg|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
  "fa_d64|$fa|$big -Ddim=64 $t256" "fa_d128|$fa|$big -Ddim=128 $t256"
  "fac_d64|$fac|$big -Ddim=64 $t256" "fac_d128|$fac|$big -Ddim=128 $t256"
)
jobs=()
for v in "${kernels[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  for which in old new; do jobs+=("$W/$which/$name|$which|$file|--target=cuda:sm_90a $defs"); done
  [[ $name == v_* ]] && jobs+=("$W/cpu/$name|new|$file|--target=cpu $defs")
done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o w f d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$W"'/bin/tlc-build-$w" "$f" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' > "$O/verify.log" 2>&1
step built
# The bench GEMMs into each build's cache, 8 processes a build.
gemm_env() { echo "TLC_BUILD=$W/bin/tlc-build-$1 TLC_CACHE_DIR=/tmp/tlc-cache-uniform-$1 CONFIGS=uniform DTYPES=f16"; }
SHAPES="4096 8192 8192x8192x1024 16384x16384x4096"
for which in old new; do
  for i in $(seq 0 7); do
    env $(gemm_env $which) python3 "$P/gemm_graph_bench.py" --build-only --shard "$i/8" $SHAPES > "$W/build-$which-$i.log" 2>&1 &
  done
done
for which in old new; do
  grep -q "warpGroup" "$W/$which/v_pp_nn_f16/"*.cu && echo "$which: warp-uniform warpgroup index" >> "$O/verify.log" \
    || echo "$which: warpgroup index from threadIdx.x" >> "$O/verify.log"
  for v in "${kernels[@]}"; do
    IFS='|' read -r name _ _ <<< "$v"
    [[ $name == v_* ]] || continue
    echo "=== $which $name" >> "$O/verify.log"
    timeout 60 "$RUN" "$W/$which/$name" --device cuda --verify --reference "$W/cpu/$name" --seed 7 >> "$O/verify.log" 2>&1
    echo "rc=$?" >> "$O/verify.log"
  done
done
echo "PASS $(grep -c 'verify .*: PASS' "$O/verify.log") verified outputs" | tee -a "$O/verify.log"
step verified
for which in old new; do
  for name in s_pp_4096 s_wide_4096 fa_d64 fa_d128 fac_d64 fac_d128; do
    python3 "$P/sass_hot_loop.py" --raw "$W/$which/$name/"*.cubin >> "$O/sass.log" 2>&1
    python3 "$P/sass_hot_loop.py" "$W/$which/$name/"*.cubin 2>&1 | sed "s|^== |== $which $name |" >> "$O/sass.log"
  done
done
step sass
wait
cat "$W"/build-*.log | grep FAILED >> "$O/verify.log"
step gemm-built
for which in new old; do
  late 400 "gemm bench $which" && continue
  env $(gemm_env $which) timeout $((480 - SECONDS)) python3 "$P/gemm_graph_bench.py" $SHAPES > "$O/gemm-$which.log" 2>&1
  step "gemm bench $which"
done
if ! late 500 "fa bench"; then
  dirs=()
  for name in fa_d64 fa_d128 fac_d64 fac_d128; do
    for which in old new; do
      mkdir -p "$W/bench"; ln -sfn "$W/$which/$name" "$W/bench/${which}_$name"; dirs+=("$W/bench/${which}_$name")
    done
  done
  timeout $((570 - SECONDS)) python3 "$P/fa_ws_bench.py" "$S/lib/libtlc_cuda.so" "$P/tlc_runtime.py" "${dirs[@]}" > "$O/fa.log" 2>&1
  step "fa bench"
fi
for name in v_pp_nn_f16 v_fa_d64_seq77; do
  for tool in memcheck racecheck; do
    late 575 "sanitizer $tool $name" && continue
    echo "=== compute-sanitizer --tool $tool new $name" >> "$O/sanitizer.log"
    timeout $((590 - SECONDS)) compute-sanitizer --tool $tool "$RUN" "$W/new/$name" --device cuda --verify --reference "$W/cpu/$name" 2>&1 | tail -4 >> "$O/sanitizer.log"
  done
done
step done
grep -c "verify .*: PASS" "$O/verify.log"; tail -4 "$O/gemm-new.log" "$O/gemm-old.log" 2>/dev/null; grep -i "ratio\|cudnn" "$O/fa.log" | tail -8

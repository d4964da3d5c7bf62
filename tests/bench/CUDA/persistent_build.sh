#!/bin/bash
# Builds one H200 call's artifacts for persistent warp-specialised GEMMs
# (tile-persistent-gemm; docs/perf/hopper-persistent.md) into OUT (default
# build-h200-persistent):
#   verify/   persistent GEMMs at ragged sizes (no dimension a multiple of
#             its tile) with CPU-target references: 132 blocks over 256 and
#             512 tiles, 7 blocks over 24 tiles (several tiles per block),
#             staged and TMA-stored epilogues, NN/TN, f16/bf16, 128 and 256
#             consumer threads
#   bench/    GEMM f16 (and bf16 at the cubes) at 4096^3, 8192^3,
#             8192x8192x1024 and 16384x16384x4096 (M x N x K), NN:
#             base_* not persistent (tlc.persistent=False), pers_*
#             persistent, pst_* persistent with the TMA-store epilogue
# plus tlc-run, libtlc_cuda.so, the Python launcher, ws_gemm_bench.py and
# persistent_run.sh, which runs it all.
# Usage: tests/bench/CUDA/persistent_build.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-persistent}
bench=$root/tests/bench/CUDA
hg=$bench/hopper_gemm.py
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench" "$out/bin"
cp "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/"
cp "$root/python/tilelang/_runtime.py" "$out/tlc_runtime.py"
on=--pass-config=tlc.persistent=True
off=--pass-config=tlc.persistent=False
st=--pass-config=tlc.tma_store=True
verify=(
  "pers_nn_f16_t256|-DM=2000 -DN=4000 -DK=200 $on"
  "pst_tn_bf16_t256|-DM=2000 -DN=4000 -DK=328 -Dtrans_B=True -Ddtype=T.bfloat16 $on $st"
  "pers_nn_f16_t128_s4|-DM=2000 -DN=2000 -DK=264 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 $on"
  "pers_nn_f16_sms7|-DM=1000 -DN=520 -DK=200 -Dpanel=3 $on --pass-config=tlc.num_sms=7"
  "pst_nn_f16_sms7|-DM=1000 -DN=520 -DK=200 $on $st --pass-config=tlc.num_sms=7"
)
jobs=()
for v in "${verify[@]}"; do
  IFS='|' read -r name defs <<< "$v"
  jobs+=("verify/$name/cuda|--target=cuda:sm_90a $defs" "verify/$name/cpu|--target=cpu $defs")
done
shapes=("4096 4096 4096" "8192 8192 8192" "8192 8192 1024" "16384 16384 4096")
for s in "${shapes[@]}"; do
  read -r M N K <<< "$s"
  d="-DM=$M -DN=$N -DK=$K"
  tag="${M}x${N}x${K}"
  jobs+=("bench/base_nn_f16_$tag|--target=cuda:sm_90a $d $off"
         "bench/pers_nn_f16_$tag|--target=cuda:sm_90a $d $on"
         "bench/pst_nn_f16_$tag|--target=cuda:sm_90a $d $on $st")
  if [ "$M" = "$K" ]; then
    jobs+=("bench/base_nn_bf16_$tag|--target=cuda:sm_90a $d -Ddtype=T.bfloat16 $off"
           "bench/pers_nn_bf16_$tag|--target=cuda:sm_90a $d -Ddtype=T.bfloat16 $on")
  fi
done
printf '%s\n' "${jobs[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c '
  IFS="|" read -r name defs <<< "{}"
  "'"$build"'/bin/tlc-build" "'"$hg"'" -o "'"$out"'/$name" $defs ${CUDA_COMPILER:-} > /dev/null || { echo "FAILED: $name" >&2; exit 1; }
  rm -rf "'"$out"'/$name/tlc_device"'
for v in "${verify[@]}"; do
  IFS='|' read -r name defs <<< "$v"
  grep -q "+= gridDim.x)" "$out/verify/$name/cuda/"*.cu || { echo "$name: not persistent" >&2; exit 1; }
done
cp "$bench/ws_gemm_bench.py" "$bench/persistent_run.sh" "$out/"
echo "built into $out"

#!/bin/bash
# Builds the Hopper (wgmma) GEMM artifacts for one H200 run into OUT
# (default build/h200-hopper): verification kernels at ragged sizes with
# their CPU references, benchmark kernels, tlc-run, and hopper_run.sh,
# which runs everything on the GPU machine (see docs/perf/hopper.md).
# Usage: tests/bench/CUDA/hopper_build.sh BUILD_BIN [OUT]
set -eu
bin=${1:?build/bin with tlc-build and tlc-run}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build/h200-hopper}
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench" "$out/bin"
cp "$bin/tlc-run" "$out/bin/"
bench=$root/tests/bench/CUDA
# Verification: name | file | -D bindings (ragged: not multiples of tiles).
verify=(
  "gemm_f16|$root/examples/gemm.py|-Dm=1000 -Dn=520 -Dk=200"
  "gemm_bf16|$root/examples/gemm.py|-Dm=1000 -Dn=520 -Dk=200 -Ddtype=T.bfloat16"
  "hgemm_nn|$bench/hopper_gemm.py|-DM=1000 -DN=520 -DK=200"
  "hgemm_tn|$bench/hopper_gemm.py|-DM=1000 -DN=520 -DK=200 -Dtrans_B=True"
  "hgemm_tn_bf16|$bench/hopper_gemm.py|-DM=1000 -DN=520 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16"
  "hgemm_nn_t128|$bench/hopper_gemm.py|-DM=333 -DN=250 -DK=100 -Dthreads=128 -Dblock_N=128"
  "fp8_gemm|$root/examples/fp8_gemm.py|-DM=1000 -DN=520 -DK=200"
)
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  "$bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs > /dev/null
  "$bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
# Benchmarks (hopper_gemm_bench.py; *_tn*: B stored [N, K]).
benches=(
  "nn_f16_4096|-DM=4096 -DN=4096 -DK=4096"
  "nn_bf16_4096|-DM=4096 -DN=4096 -DK=4096 -Ddtype=T.bfloat16"
  "tn_f16_4096|-DM=4096 -DN=4096 -DK=4096 -Dtrans_B=True"
  "tn_bf16_4096|-DM=4096 -DN=4096 -DK=4096 -Dtrans_B=True -Ddtype=T.bfloat16"
  "nn_f16_8192|-DM=8192 -DN=8192 -DK=8192"
  "nn_bf16_8192|-DM=8192 -DN=8192 -DK=8192 -Ddtype=T.bfloat16"
  "tn_f16_8192|-DM=8192 -DN=8192 -DK=8192 -Dtrans_B=True"
  "tn_bf16_8192|-DM=8192 -DN=8192 -DK=8192 -Dtrans_B=True -Ddtype=T.bfloat16"
  "nn_f16_8192x8192x1024|-DM=8192 -DN=8192 -DK=1024"
  "tn_bf16_16384x16384x4096|-DM=16384 -DN=16384 -DK=4096 -Dtrans_B=True -Ddtype=T.bfloat16"
  "nn_f16_4096_s4|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
  "nn_f16_4096_n128_t128|-DM=4096 -DN=4096 -DK=4096 -Dblock_N=128 -Dthreads=128"
  "nn_f16_8192_n128_t128|-DM=8192 -DN=8192 -DK=8192 -Dblock_N=128 -Dthreads=128"
  "tn_bf16_8192_n128_t128|-DM=8192 -DN=8192 -DK=8192 -Dblock_N=128 -Dthreads=128 -Dtrans_B=True -Ddtype=T.bfloat16"
  "nn_bf16_4096_n128_t128_s4|-DM=4096 -DN=4096 -DK=4096 -Dblock_N=128 -Dthreads=128 -Dnum_stages=4 -Ddtype=T.bfloat16"
  "skinny_nn_f16_16x8192x8192|-DM=16 -DN=8192 -DK=8192 -Dblock_M=64 -Dblock_N=128 -Dthreads=128"
)
for b in "${benches[@]}"; do
  IFS='|' read -r name defs <<< "$b"
  "$bin/tlc-build" "$bench/hopper_gemm.py" --target=cuda:sm_90a -o "$out/bench/$name" $defs > /dev/null
  rm -rf "$out/bench/$name/tlc_device"
done
# The Ampere-path baseline of the same kernel (sm_80 build, run on the H200).
"$bin/tlc-build" "$bench/hopper_gemm.py" --target=cuda:sm_80 -o "$out/bench/mma_nn_f16_4096" -DM=4096 -DN=4096 -DK=4096 > /dev/null
rm -rf "$out/bench/mma_nn_f16_4096/tlc_device"
cp "$bench/hopper_gemm_bench.py" "$bench/hopper_run.sh" "$out/"
echo "built into $out"

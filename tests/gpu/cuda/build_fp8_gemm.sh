#!/bin/bash
# Builds examples/fp8_gemm.py with the CUDA emitter (m16n8k32) at ragged and
# benchmark sizes for e4m3 and e5m2 into OUTDIR, for fp8_gemm_check.py.
# Usage: tests/gpu/cuda/build_fp8_gemm.sh BUILD_DIR OUTDIR
set -eu
b=${1:?build dir}
o=${2:?output dir}
root=$(cd "$(dirname "$0")/../../.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$o"
: > "$o/fp8.txt"
for c in "fp8_ragged 1000 520 384 e4m3" "fp8_e5m2_ragged 333 200 256 e5m2" \
         "fp8_4096 4096 4096 4096 e4m3"; do
  read -r name m n k dt <<< "$c"
  dtype=T.float8_e4m3fn
  [ "$dt" = e5m2 ] && dtype=T.float8_e5m2
  "$b/bin/tlc-build" --emit=tile -D M=$m -D N=$n -D K=$k -D in_dtype=$dtype \
    "$root/examples/fp8_gemm.py" > "$o/$name.mlir"
  "$b/bin/tlc-translate" --tile-to-cuda "$o/$name.mlir" -o "$o/$name.cu"
  "$b/bin/tlc-translate" --tile-to-cuda-sourcemap "$o/$name.mlir" |
    grep '^kernel ' > "$o/$name.launch"
  grep -o 'grid \[[0-9, ]*\] threads \[[0-9]*\]' "$o/$name.mlir" >> "$o/$name.launch"
  "$nvcc" -std=c++17 -O3 -lineinfo -I"$root/runtime/device/include" \
    -gencode=arch=compute_90a,code=sm_90a -cubin -Xptxas -v \
    -o "$o/$name.cubin" "$o/$name.cu" 2>&1 | grep -E "Used|spill" | tr '\n' ' '
  echo "$name"
  echo "$name $m $n $k $dt" >> "$o/fp8.txt"
done

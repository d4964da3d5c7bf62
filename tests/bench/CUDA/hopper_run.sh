#!/bin/bash
# On the GPU machine, from the repository root: runs what hopper_build.sh
# built (S, default build/h200-hopper): every verification kernel with
# tlc-run --device cuda --verify against its CPU reference, the f16 and
# TN kernels under compute-sanitizer memcheck and racecheck, SASS
# instruction counts (HGMMA), then hopper_gemm_bench.py. Logs go to $OUT.
S=${1:-build/h200-hopper}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/hopper-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/hopper-verify.log"
  "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" >> "$O/hopper-verify.log" 2>&1
  echo "rc=$?" >> "$O/hopper-verify.log"
done
for n in hgemm_tn hgemm_nn_t128 gemm_f16; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/hopper-sanitizer.log"
    compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/hopper-sanitizer.log"
  done
done
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin "$d"/*.fatbin 2>/dev/null | head -1)
  echo "$(basename "$d"): HGMMA $(cuobjdump -sass "$c" | grep -c HGMMA) HMMA $(cuobjdump -sass "$c" | grep -c 'HMMA')" >> "$O/hopper-sass.log"
done
PYTHONUNBUFFERED=1 python3 "$S/hopper_gemm_bench.py" "$S"/bench/*/ 2>&1 | tee "$O/hopper-bench.log"

#!/bin/bash
# On the GPU machine, from the repository root: runs what tma_store_build.sh
# built (S) with the tlc-run / libtlc_cuda.so / launcher of P (what
# fa_pingpong_build.sh built). Logs go to $OUT:
#   gemm-st-verify.log     tlc-run --verify against the CPU target
#   gemm-st-sanitizer.log  compute-sanitizer memcheck and racecheck
#   gemm-st-bench.log      ws_gemm_bench.py: tlc next to torch.matmul
# Usage: tma_store_run.sh S P
S=${1:-build-h200-tma-store}
P=${2:-build-h200-fa-pingpong}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/gemm-st-verify.log"
  timeout 60 "$P/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/gemm-st-verify.log" 2>&1
  echo "rc=$?" >> "$O/gemm-st-verify.log"
done
echo "GEMM PASS $(grep -c ': PASS' "$O/gemm-st-verify.log") of $(ls -d "$S"/verify/*/ | wc -l)"
for n in san_gemm_example; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/gemm-st-sanitizer.log"
    timeout 60 compute-sanitizer --tool $tool "$P/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/gemm-st-sanitizer.log"
  done
done
cat "$O/gemm-st-sanitizer.log"
PYTHONUNBUFFERED=1 python3 "$S/ws_gemm_bench.py" "$P/libtlc_cuda.so" "$P/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/gemm-st-bench.log"

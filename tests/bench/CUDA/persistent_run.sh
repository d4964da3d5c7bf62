#!/bin/bash
# On the GPU machine, from the repository root: runs what
# persistent_build.sh built (S). Logs go to $OUT:
#   persistent-verify.log     tlc-run --verify against the CPU target
#   persistent-sanitizer.log  compute-sanitizer memcheck and racecheck
#   persistent-bench.log      ws_gemm_bench.py: tlc next to torch.matmul
# Usage: persistent_run.sh S
S=${1:-build-h200-persistent}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/persistent-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/persistent-verify.log"
  timeout 60 "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/persistent-verify.log" 2>&1
  echo "rc=$?" >> "$O/persistent-verify.log"
done
echo "GEMM PASS $(grep -c ': PASS' "$O/persistent-verify.log") of $(ls -d "$S"/verify/*/ | wc -l)"
for n in pers_nn_f16_sms7 pst_nn_f16_sms7; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/persistent-sanitizer.log"
    timeout 60 compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/persistent-sanitizer.log"
  done
done
cat "$O/persistent-sanitizer.log"
PYTHONUNBUFFERED=1 python3 "$S/ws_gemm_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/persistent-bench.log"

#!/bin/bash
# On the GPU machine, from the repository root: runs what breadth_build.sh
# built (S, default build/h200-breadth): every program's sm_90a and sm_80
# builds with tlc-run --device cuda --verify against its CPU-target
# reference (same seeded inputs), then the tf32, f64 and fragment-rows
# kernels under compute-sanitizer memcheck and racecheck (breadth-h200.log);
# with `tf32` as the second argument instead, the K = 1000 tf32 GEMM with a
# K-sized tolerance and its GPU output against NumPy models of tf32
# truncation and rounding (tf32_check.py; breadth-h200-tf32.log).
S=${1:-build/h200-breadth}
O=${OUT:-/tmp/out}; mkdir -p "$O"
L=$O/breadth-h200.log
export TLC_CACHE_DIR=/tmp/tlc-cache
if [ "${2:-}" = tf32 ]; then
  L=$O/breadth-h200-tf32.log
  for a in sm_90a sm_80; do
    echo "=== tf32_nt_large $a: tlc-run --device cuda --verify --reference cpu --atol 2e-3 (K=1000)" >> "$L"
    "$S/bin/tlc-run" "$S/progs/tf32_nt_large/$a" --device cuda --verify --reference "$S/progs/tf32_nt_large/cpu" --atol 2e-3 --save /tmp/o_$a >> "$L" 2>&1
    echo "rc=$?" >> "$L"
    echo "--- python3 tf32_check.py (GPU $a output vs NumPy models)" >> "$L"
    python3 "$S/tf32_check.py" /tmp/o_$a >> "$L" 2>&1
  done
  cat "$L"
  exit 0
fi
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$L"
for d in "$S"/progs/*/; do
  n=$(basename "$d")
  for arch in sm_90a sm_80; do
    echo "=== $n $arch: tlc-run $arch --device cuda --verify --reference cpu" >> "$L"
    "$S/bin/tlc-run" "$d/$arch" --device cuda --verify --reference "$d/cpu" >> "$L" 2>&1
    echo "rc=$?" >> "$L"
  done
done
for n in tf32_tn f64_tt fragment_rows reduce_keepdim; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n sm_90a" >> "$L"
    compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/progs/$n/sm_90a" --device cuda --verify --reference "$S/progs/$n/cpu" 2>&1 | tail -3 >> "$L"
  done
done
grep -c "^rc=0" "$L" | sed 's/^/runs passed: /'
grep -B1 "^rc=[1-9]" "$L" | head -20

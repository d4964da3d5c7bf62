#!/bin/bash
# On the GPU machine: runs what build37_stage.sh built (S), every build
# with tlc-run --device cuda --verify against its CPU-target reference
# (same seeded inputs), and the two lit programs under compute-sanitizer
# racecheck and memcheck. Log: $OUT/build37-gpu.log.
S=${1:?directory build37_stage.sh wrote}
O=${OUT:-/tmp/out}; mkdir -p "$O"
L=$O/build37-gpu.log
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$L"
for d in "$S"/progs/*/; do
  p=$(basename "$d")
  for b in "$d"sm_*; do
    echo "=== $p $(basename "$b"): tlc-run --device cuda --verify --reference cpu" >> "$L"
    timeout 300 "$S/bin/tlc-run" "$b" --device cuda --verify --reference "$d/cpu" >> "$L" 2>&1
    echo "rc=$?" >> "$L"
  done
done
for p in range-fragment-shared-writes mbarrier-sm80; do
  for b in "$S/progs/$p"/sm_*; do
    for tool in racecheck memcheck; do
      echo "=== compute-sanitizer --tool $tool $p $(basename "$b")" >> "$L"
      compute-sanitizer --tool $tool "$S/bin/tlc-run" "$b" --device cuda --verify --reference "$S/progs/$p/cpu" 2>&1 | tail -3 >> "$L"
    done
  done
done
grep -c "^rc=0" "$L" | sed 's/^/runs passed: /'
grep -B3 "^rc=[1-9]" "$L" | head -40
cat "$L"

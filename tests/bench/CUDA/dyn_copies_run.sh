#!/bin/bash
# On the GPU machine, from the repository root: runs what
# dyn_copies_build.sh built (S): every program's sm_90a and sm_80 builds
# with tlc-run --device cuda --verify against its CPU-target reference (same
# seeded inputs) at two sets of run-time sizes, then the sm_90a builds under
# compute-sanitizer memcheck. Log: $OUT/dyn-copies-h200.log.
S=${1:?directory dyn_copies_build.sh wrote}
O=${OUT:-/tmp/out}; mkdir -p "$O"
L=$O/dyn-copies-h200.log
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$L"
sizes=("-D total=300 -D N=100 -D m=100 -D n=72 -D k=40"
       "-D total=4099 -D N=1000 -D m=1000 -D n=520 -D k=264")
for p in varlen-copy pointer-tensor safe-value; do
  for arch in sm_90a sm_80; do
    for s in "${sizes[@]}"; do
      echo "=== $p $arch $s: tlc-run --device cuda --verify --reference cpu" >> "$L"
      "$S/bin/tlc-run" "$S/progs/$p/$arch" --device cuda --verify --reference "$S/progs/$p/cpu" $s >> "$L" 2>&1
      echo "rc=$?" >> "$L"
    done
  done
  echo "=== compute-sanitizer --tool memcheck $p sm_90a" >> "$L"
  compute-sanitizer --tool memcheck "$S/bin/tlc-run" "$S/progs/$p/sm_90a" --device cuda --verify --reference "$S/progs/$p/cpu" ${sizes[0]} 2>&1 | tail -4 >> "$L"
done
grep -c "^rc=0" "$L" | sed 's/^/runs passed: /'
grep -B3 "^rc=[1-9]" "$L" | head -40
cat "$L"

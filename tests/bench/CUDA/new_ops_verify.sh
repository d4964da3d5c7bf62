#!/bin/bash
# The seventeenth session's new operations on a CUDA GPU (docs/perf/merged-main.md):
# rng against curand and the NumPy Philox, import_source / T.ld / the
# replicated read-store against the CPU target. Usage: new_ops_verify.sh STAGE
# (STAGE/bin holds tlc-build and tlc-run; run from the repository root).
S=$1; B=$S/bin; W=$S/w; mkdir -p $W
python3 tests/bench/CUDA/curand_philox_check.py $W/curand 2>&1 | tail -8
$B/tlc-build --target=cuda:sm_90a -o $W/rng tests/lit/Target/Cpp/rng-philox.py > /dev/null 2>&1
echo "== tlc rng kernels on the GPU against the NumPy Philox"
python3 tests/lit/Target/Cpp/Inputs/rng_philox_ref.py $B/tlc-run $W/rng $W/rngw --device cuda 2>&1 | tail -6
for t in Target/CUDA/import-source.py Target/CUDA/ld-options.py Target/CUDA/fragment-replica-read-store.py; do
  n=$(basename $t .py); echo "== $n"
  $B/tlc-build --target=cpu -o $W/$n/cpu tests/lit/$t > /dev/null 2>&1
  $B/tlc-build --target=cuda:sm_90a -o $W/$n/gpu tests/lit/$t > /dev/null 2>&1
  for j in $W/$n/gpu/*.json; do $B/tlc-run $j --device cuda --seed 7 --reference $W/$n/cpu --verify 2>&1 | grep -E "verify|error"; done
done

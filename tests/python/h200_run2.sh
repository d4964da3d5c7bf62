#!/bin/bash
# The second H200 run of docs/perf/python-package-h200.md (fp8 rounding, tlc-build --autotune and -j build times).
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}   # the run in docs/perf used BUILD=build-py
export TLC_BUILD=$PWD/$BUILD/bin/tlc-build TLC_CUDA_RUNTIME=$PWD/$BUILD/lib/libtlc_cuda.so PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
echo "== tests/python/cuda_fp8_rounding.py"
TLC_CACHE_DIR=/tmp/c-ex timeout 120 python3 tests/python/cuda_fp8_rounding.py 2>&1 | tail -12
for run in cold warm; do
echo "== tlc-build --autotune tests/python/cuda_tune_gemm_both.py (command line, 16 configurations): $run"
s=$(date +%s%N); TLC_CACHE_DIR=/tmp/c-cli timeout 150 $BUILD/bin/tlc-build --target=cuda:sm_90a --autotune -o /tmp/cli-$run tests/python/cuda_tune_gemm_both.py 2>&1 | grep -v "^wrote"; e=$(date +%s%N); echo "wall $(( (e - s) / 1000000 )) ms"
done
echo "== tlc-build -j16 examples/*.py -o (every instance of every example), cold then warm"
for run in cold warm; do s=$(date +%s%N); TLC_CACHE_DIR=/tmp/c-j timeout 150 $BUILD/bin/tlc-build --target=cuda:sm_90a -j16 -o /tmp/j-$run examples/*.py > /tmp/j-$run.log 2>&1; rc=$?; e=$(date +%s%N); echo "$run: rc=$rc $(grep -c '^wrote' /tmp/j-$run.log) binaries ($(grep -c '(cached)' /tmp/j-$run.log) from the cache) in $(( (e - s) / 1000000 )) ms"; done
s=$(date +%s%N); TLC_CACHE_DIR=/tmp/c-j1 timeout 200 $BUILD/bin/tlc-build --target=cuda:sm_90a -o /tmp/j1 examples/*.py > /tmp/j1.log 2>&1; rc=$?; e=$(date +%s%N); echo "-j1 cold: rc=$rc $(grep -c '^wrote' /tmp/j1.log) binaries in $(( (e - s) / 1000000 )) ms"

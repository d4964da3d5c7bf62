#!/bin/bash
# The first H200 run of docs/perf/python-package-h200.md (CUDA smoke test, every example with float64 references, the Python autotuner cold and warm, tlc-build --autotune).
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}   # the run in docs/perf used BUILD=build-py
export TLC_BUILD=$PWD/$BUILD/bin/tlc-build TLC_CUDA_RUNTIME=$PWD/$BUILD/lib/libtlc_cuda.so PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__)"; nvcc --version | tail -1
echo "== tests/python/cuda_smoke.py"
TLC_CACHE_DIR=/tmp/c-smoke timeout 150 python3 tests/python/cuda_smoke.py 2>&1 | tail -12
echo "== examples/*.py through the package, float64 references (cold cache)"
export TLC_CACHE_DIR=/tmp/c-ex
one() { s=$(date +%s%N); timeout 150 python3 tests/python/float64_reference.py "$1" > /tmp/ex-$(basename $1).log 2>&1; rc=$?; e=$(date +%s%N); printf "%-34s rc=%d %5.1fs | %s\n" "$1" $rc $(( (e - s) / 100000000 ))e-1 "$(grep -v '^ *$' /tmp/ex-$(basename $1).log | tail -1 | cut -c1-150)"; }
export -f one
ls examples/*.py | xargs -P 6 -I{} bash -c 'one {}' | sort
cat /tmp/ex-*.log > $OUT/examples.log
echo "== tests/python/cuda_fp8_rounding.py"
TLC_CACHE_DIR=/tmp/c-ex timeout 120 python3 tests/python/cuda_fp8_rounding.py 2>&1 | tail -6
echo "== tests/python/cuda_autotune_gemm.py (Python autotuner, 16 configurations): cold"
TLC_CACHE_DIR=/tmp/c-tune timeout 200 python3 tests/python/cuda_autotune_gemm.py 2>&1 | tail -22
echo "== warm"
TLC_CACHE_DIR=/tmp/c-tune timeout 120 python3 tests/python/cuda_autotune_gemm.py 2>&1 | tail -4
echo "== tlc-build --autotune tests/python/cuda_tune_gemm_both.py (command line, 16 configurations): cold"
s=$(date +%s%N); TLC_CACHE_DIR=/tmp/c-cli timeout 200 $BUILD/bin/tlc-build --target=cuda:sm_90a --autotune -o /tmp/cli tests/python/cuda_tune_gemm_both.py 2>&1 | grep -v "^wrote"; e=$(date +%s%N); echo "wall $(( (e - s) / 1000000 )) ms"
echo "== warm (the same command again)"
s=$(date +%s%N); TLC_CACHE_DIR=/tmp/c-cli timeout 150 $BUILD/bin/tlc-build --target=cuda:sm_90a --autotune -o /tmp/cli2 tests/python/cuda_tune_gemm_both.py 2>&1 | grep -v "^wrote"; e=$(date +%s%N); echo "wall $(( (e - s) / 1000000 )) ms"

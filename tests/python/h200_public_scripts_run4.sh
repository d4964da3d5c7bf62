#!/bin/bash
# One H200 call (docs/perf/python-public-scripts-h200.md, fourth run): the
# public scripts through the package (h200_public_scripts.sh), then the
# tests/python CUDA scripts that go through the current tuner
# (cuda_smoke.py, cuda_autotune_gemm.py, cuda_tune_gemm_both.py). Stage,
# next to this file as go.sh:
#   bin/tlc-build lib/libtlc_cuda.so python/{tilelang,tvm}
#   tests/h200_public_scripts.sh corpus/*.py
# and run from the repository root:  LIMIT=90 PAR=8 bash STAGE/go.sh
S=$(cd "$(dirname "$0")" && pwd)
ROOT=$PWD
OUT=${OUT:-/tmp/out}
export TLC_CACHE_DIR=/tmp/tlc-cache
STAGE=$S HELPERS="example_triton_cast_to_fp8.py" \
  LIMIT=${LIMIT:-90} PAR=${PAR:-8} bash $S/tests/h200_public_scripts.sh
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
for t in cuda_smoke cuda_autotune_gemm cuda_tune_gemm_both; do
  echo "== tests/python/$t.py"
  s=$(date +%s)
  TLC_CACHE_DIR=/tmp/c-$t timeout 45 python3 $ROOT/tests/python/$t.py 2>&1 | tail -14
  echo "rc=${PIPESTATUS[0]} $(( $(date +%s) - s ))s"
done > $OUT/tests_python.txt 2>&1

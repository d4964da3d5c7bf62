#!/bin/bash
# One H200 call (docs/perf/python-public-scripts-h200.md, third run): the
# public scripts through the package (h200_public_scripts.sh), then the host
# launcher test cuda_host_source.py. Stage, next to this file as go.sh:
#   bin/tlc-build lib/libtlc_cuda.so include/tlc_cuda.h python/{tilelang,tvm}
#   tests/{h200_public_scripts.sh,cuda_host_source.py} corpus/*.py
# and run from the repository root:  LIMIT=120 PAR=8 bash STAGE/go.sh
S=$(cd "$(dirname "$0")" && pwd)
export TLC_CACHE_DIR=/tmp/tlc-cache
STAGE=$S HELPERS="example_triton_cast_to_fp8.py example_gemm_autotune.py" \
  LIMIT=${LIMIT:-150} PAR=${PAR:-8} bash $S/tests/h200_public_scripts.sh
nvcc --version | tail -2 > $OUT/host_source.txt
TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  TLC_CUDA_INCLUDE=$S/include PYTHONPATH=$S/python PATH=/usr/local/cuda/bin:$PATH \
  timeout 120 python3 $S/tests/cuda_host_source.py >> $OUT/host_source.txt 2>&1
echo "rc=$?" >> $OUT/host_source.txt

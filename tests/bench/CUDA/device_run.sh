#!/bin/bash
# The one command run on the H200 (device tool `run`, carrying
# build-cuda2/gpu-kernels, build-cuda2/bin/tlc-cuda-gpu-tests and
# build-cuda2/tests/gpu/kernels): verification of every emitted example at
# ragged sizes, the same under compute-sanitizer memcheck (and racecheck on
# three kernels), the benchmark, then the device-header GPU suite.
B=${1:-build-cuda2}
K=$B/gpu-kernels
O=${OUT:-gpu-logs}
mkdir -p "$O"
export PYTHONUNBUFFERED=1
R="python3 tests/bench/CUDA/run_h200.py $K"
RAGGED=ew_ragged,ew_small,softmax_ragged,rmsnorm_ragged,layernorm_ragged,transpose_ragged,cumsum_ragged,quant_ragged,gemm_ragged,fa_ragged,fac_ragged
{
  echo "## $(date -u +%FT%TZ) $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  echo "## $R --verify"
  timeout 120 $R --verify
  echo "## PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck $R --verify --only \$RAGGED"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 200 compute-sanitizer --tool memcheck \
    --report-api-errors no $R --verify --only $RAGGED 2>&1 | grep -vE "^=+ *$" | tail -25
  echo "## compute-sanitizer --tool racecheck $R --verify --only softmax_ragged,gemm_ragged,fa_ragged"
  PYTORCH_NO_CUDA_MEMORY_CACHING=1 timeout 150 compute-sanitizer --tool racecheck \
    --report-api-errors no $R --verify --only softmax_ragged,gemm_ragged,fa_ragged 2>&1 | tail -8
  echo "## $R --bench"
  timeout 180 $R --bench
  echo "## device-header suite"
  OUT=$O timeout 100 bash tests/gpu/cuda/run_device_tests.sh "$B" | tail -12
} 2>&1 | tee "$O/h200-run.log"

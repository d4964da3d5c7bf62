#!/bin/bash
# The one command run on the H200. Built here beforehand (see
# docs/perf/tlc-run-h200.md and cuda-emitter-h200.md):
#   ninja -C BUILD tlc-build tlc-run tlc-translate tlc-cuda-gpu-tests tlc-cuda-gpu-kernels
#   tests/bench/CUDA/build_kernels.sh BUILD BUILD/bin/tlc-build     -> BUILD/gpu-kernels
#   tests/bench/CUDA/tlc_run_examples.sh build BUILD/bin BUILD/h200-art
# and staged into one small directory S that is carried to the device:
#   S=BUILD/h200; mkdir -p $S/bin $S/tests/gpu
#   cp BUILD/bin/tlc-run BUILD/bin/tlc-cuda-gpu-tests $S/bin/
#   cp -r BUILD/gpu-kernels BUILD/h200-art $S/; cp -r BUILD/tests/gpu/kernels $S/tests/gpu/
# then, on the device (carrying S):
#
#   bash tests/bench/CUDA/device_run.sh S [--dry-run]
#
# Steps, each with its own time limit (8.5 minutes in all at most):
#  1. tlc-run --device cuda --verify of every example instance (CPU reference)
#  2. the same under compute-sanitizer memcheck and racecheck, every kernel,
#     one summary line per kernel and tool
#  3. run_h200.py --verify (independent float64 PyTorch reference)
#  4. run_h200.py --bench (copy bandwidth; softmax, softmax_rows and rms_norm
#     as a percentage of it, next to torch.softmax and F.rms_norm; cuBLAS
#     f16/bf16 next to tlc f16/bf16 GEMM 4096^3 and 8192^3, SDPA cuDNN/flash
#     next to flash attention)
#  5. the device-header suite
# A failing step is reported and the next one runs; the exit status is 1
# when any step failed.
B=${1:-build-cuda2}
dry=
[ "${2:-}" = --dry-run ] && dry=--dry-run
K=$B/gpu-kernels
A=$B/h200-art
O=${OUT:-gpu-logs}
mkdir -p "$O"
export PYTHONUNBUFFERED=1
here=$(dirname "$0")
# The Python with CuPy and PyTorch (on the GPU machine: python3).
R="${PYTHON:-python3} $here/run_h200.py $K"
rc=0
step() { # step LIMIT_SECONDS COMMAND...
  local limit=$1
  shift
  echo "## [$(date -u +%T), ${SECONDS}s] $* (limit ${limit}s)"
  if [ -n "$dry" ]; then
    return 0
  fi
  timeout "$limit" "$@"
  local s=$?
  [ $s = 0 ] || { echo "## step failed: exit $s"; rc=1; }
}
{
  echo "## $(date -u +%FT%TZ) $(uname -r)"
  [ -n "$dry" ] || nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  if [ -n "$dry" ]; then
    bash "$here/tlc_run_examples.sh" run "$B/bin" "$A" --dry-run | grep -c "would run" | sed 's/^/tlc-run verify runs: /'
    bash "$here/tlc_run_examples.sh" sanitize "$B/bin" "$A" --dry-run | grep -c "would run" | sed 's/^/sanitizer runs: /'
  fi
  step 120 bash "$here/tlc_run_examples.sh" run "$B/bin" "$A"
  TLC_SANITIZE_BUDGET=150 step 180 bash "$here/tlc_run_examples.sh" sanitize "$B/bin" "$A"
  if [ -n "$dry" ]; then
    $R --verify --bench --dry-run
  fi
  step 40 $R --verify
  step 200 $R --bench
  echo "## device-header suite"
  [ -n "$dry" ] || OUT=$O timeout 60 bash tests/gpu/cuda/run_device_tests.sh "$B" | tail -12
  echo "## device_run exit $rc after ${SECONDS}s"
  exit $rc
} 2>&1 | tee "$O/h200-run.log"
exit "${PIPESTATUS[0]}"

#!/bin/bash
#===- run_device_tests.sh - Phase-1 GPU evidence in one device call ------===#
#
# Runs tlc's CUDA runtime + device-header tests (built on the development
# machine: build-cuda/bin/tlc-cuda-gpu-tests and the nvcc-built kernels),
# the bandwidth probe, the fault report, and compute-sanitizer memcheck and
# racecheck. Logs go to $OUT (or ./gpu-logs).
#
# Usage: tests/gpu/cuda/run_device_tests.sh [BUILD_DIR]
#===----------------------------------------------------------------------===#
B=${1:-build-cuda}
O=${OUT:-gpu-logs}
mkdir -p "$O"
T="$B/bin/tlc-cuda-gpu-tests"
K="$B/tests/gpu/kernels"
rc=0
{
  echo "## $(date -u +%FT%TZ) $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  echo "## $T $K --bench"
  timeout 180 "$T" "$K" --bench || rc=1
  echo "## $T $K --fault"
  timeout 60 "$T" "$K" --fault || rc=1
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    echo "## compute-sanitizer --tool $tool --report-api-errors no $T $K"
    timeout 240 "$CS" --tool $tool --report-api-errors no "$T" "$K" \
      | grep -E "checks,|FAIL|ERROR SUMMARY|RACECHECK SUMMARY|Error|error" || rc=1
  done
  echo "## exit $rc"; exit $rc
} 2>&1 | tee "$O/device-tests.log"
exit ${PIPESTATUS[0]}

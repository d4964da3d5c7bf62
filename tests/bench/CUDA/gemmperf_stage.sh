#!/bin/bash
# Stages the H200 call of branch gemmperf (issue 14's GEMM goal,
# gemmperf_run.sh) into OUT (default build-h200-gemmperf): stripped
# tlc-build and tlc-run, the package's libtlc_cuda.so, the Python package,
# the bench programs and go.sh. The lead runs, on the GPU machine, from the
# repository root with OUT carried:
#   OUT=$OUT bash build-h200-gemmperf/go.sh
# Usage: tests/bench/CUDA/gemmperf_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-gemmperf}
rm -rf "$out"; mkdir -p "$out/bin" "$out/lib" "$out/py"
cp "$build/bin/tlc-build" "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/tlc-build" "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/lib/"
cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
cp "$root/tests/bench/CUDA/gemmperf_bench.py" "$root/tests/bench/CUDA/graph_timing.py" \
   "$root/tests/bench/CUDA/hopper_gemm.py" "$root/tests/bench/CUDA/skinny_gemm.py" \
   "$root/tests/bench/CUDA/gemm_clocks.py" "$out/py/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp "$root/tests/bench/CUDA/gemmperf_run.sh" "$out/go.sh"
git -C "$root" rev-parse --short HEAD > "$out/commit"
du -sh "$out"

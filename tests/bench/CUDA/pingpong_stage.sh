#!/bin/bash
# Stages the H200 call of tile-gemm-pingpong (pingpong_run.sh) into OUT
# (default build-h200-pingpong2): stripped tlc-build and tlc-run, the
# package's libtlc_cuda.so, the Python package, the bench scripts and
# go.sh. The lead runs, on the GPU machine, from the repository root with
# OUT carried:
#   OUT=$OUT bash build-h200-pingpong2/go.sh    (run 1: verify, bench, sanitizers)
#   OUT=$OUT bash build-h200-pingpong2/go2.sh   (run 2: default-built kernels
#                                                verified, ncu profiles)
#   OUT=$OUT bash build-h200-pingpong2/go3.sh   (run 3: warp-state sampling
#                                                against cuBLAS)
# Usage: tests/bench/CUDA/pingpong_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-pingpong2}
rm -rf "$out"; mkdir -p "$out/bin" "$out/lib"
cp "$build/bin/tlc-build" "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/tlc-build" "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/lib/"
# Self-contained: the Python package and the bench scripts travel too, so
# that the call works from any checkout's root.
mkdir -p "$out/py"
cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
cp "$root/tests/bench/CUDA/gemm_graph_bench.py" "$root/tests/bench/CUDA/graph_timing.py" \
   "$root/tests/bench/CUDA/hopper_gemm.py" "$root/tests/lit/Dialect/Tile/Inputs/pingpong_gemm.py" \
   "$out/py/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp "$root/tests/bench/CUDA/pingpong_run.sh" "$out/go.sh"
cp "$root/tests/bench/CUDA/pingpong_profile.sh" "$out/go2.sh"
cp "$root/tests/bench/CUDA/pingpong_warpstate.sh" "$out/go3.sh"
du -sh "$out"

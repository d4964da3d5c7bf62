#!/bin/bash
# Stages the H200 call of tile-gemm-cluster (cluster_run.sh) into OUT
# (default build-h200-cluster, ignored by git): bin.tar.xz (stripped
# tlc-build and tlc-run, the package's libtlc_cuda.so), the Python package,
# the bench scripts and go.sh; under 30 MiB. The lead runs, on the GPU
# machine, from the repository root with OUT carried:
#   OUT=$OUT bash build-h200-cluster/go.sh
# Usage: tests/bench/CUDA/cluster_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-cluster}
rm -rf "$out"; mkdir -p "$out/py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/lib"
cp "$build/bin/tlc-build" "$build/bin/tlc-run" "$tmp/bin/"
strip "$tmp/bin/tlc-build" "$tmp/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$tmp/lib/"
strip "$tmp/lib/libtlc_cuda.so"
tar -cJf "$out/bin.tar.xz" -C "$tmp" bin lib
cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
cp "$root/tests/bench/CUDA/gemm_graph_bench.py" "$root/tests/bench/CUDA/graph_timing.py" \
   "$root/tests/bench/CUDA/hopper_gemm.py" "$out/py/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp "$root/tests/bench/CUDA/cluster_run.sh" "$out/go.sh"
du -sh "$out"

#!/bin/bash
# Stages perf33's GPU call (docs/perf/hopper.md, "split masks by default for
# causal attention at head dimension 64" and "the single-role gemm's
# warpgroup broadcast hoisted") into OUT (default build-h200-perf33): the
# tlc-build of this tree (new) and of an older tree (old, main before the
# change), stripped and xz-compressed, this tree's tlc-run and
# libtlc_cuda.so, the Python package, the bench scripts and go.sh
# (perf33_run.sh). The lead runs, on the GPU machine, from the repository
# root with the stage carried (one call, at most 6 minutes):
#   OUT=$OUT bash build-h200-perf33/go.sh
# Usage: tests/bench/CUDA/perf33_stage.sh NEW_BUILD_DIR OLD_TLC_BUILD [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
old=${2:?the old tlc-build binary}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${3:-$root/build-h200-perf33}
rm -rf "$out"; mkdir -p "$out/bin" "$out/lib" "$out/py"
cp "$build/bin/tlc-build" "$out/bin/tlc-build-new"
cp "$old" "$out/bin/tlc-build-old"
cp "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/"*
xz -T2 -6 "$out/bin/tlc-build-new" "$out/bin/tlc-build-old" "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/lib/"
cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
cp "$root/python/tilelang/_runtime.py" "$out/py/tlc_runtime.py"
cp "$root/tests/bench/CUDA/gemm_graph_bench.py" "$root/tests/bench/CUDA/graph_timing.py" \
   "$root/tests/bench/CUDA/hopper_gemm.py" "$root/tests/bench/CUDA/fa_ws_bench.py" \
   "$root/tests/bench/CUDA/sass_hot_loop.py" \
   "$root/examples/flash_attention_fwd.py" "$root/examples/flash_attention_causal.py" "$out/py/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp "$root/tests/bench/CUDA/perf33_run.sh" "$out/go.sh"
du -sh "$out"

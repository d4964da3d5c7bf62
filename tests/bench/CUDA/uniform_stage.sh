#!/bin/bash
# Stages the GPU call of the warp-uniform warpgroup index (docs/perf/hopper.md,
# "wgmma descriptors on the uniform datapath") into OUT (default
# build-h200-perf32): the tlc-build of this tree (new) and of an older tree
# (old, e.g. main before the change), both stripped and xz-compressed, this
# tree's tlc-run and libtlc_cuda.so, the Python package, the bench scripts
# and go.sh (uniform_run.sh). The lead runs, on the GPU machine, from the
# repository root with OUT carried:
#   OUT=$OUT bash build-h200-perf32/go.sh    (verify, SASS hot loops, benches)
#   OUT=$OUT bash build-h200-perf32/go2.sh   (kernel-only timings and ncu
#                                             opcode mix of the 4096^3 GEMMs)
# Usage: tests/bench/CUDA/uniform_stage.sh NEW_BUILD_DIR OLD_TLC_BUILD [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
old=${2:?the old tlc-build binary}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${3:-$root/build-h200-perf32}
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
   "$root/tests/bench/CUDA/sass_hot_loop.py" "$root/tests/bench/CUDA/sass_opcode_summary.py" \
   "$root/examples/flash_attention_fwd.py" "$root/examples/flash_attention_causal.py" "$out/py/"
find "$out" -name __pycache__ -prune -exec rm -rf {} +
cp "$root/tests/bench/CUDA/uniform_run.sh" "$out/go.sh"
cp "$root/tests/bench/CUDA/uniform_profile.sh" "$out/go2.sh"
du -sh "$out"

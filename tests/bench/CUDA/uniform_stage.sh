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
source "$root/tests/bench/CUDA/stage_common.sh"
b=$root/tests/bench/CUDA
stage_pack "$build" "$old" "$out" "$b/gemm_graph_bench.py" "$b/graph_timing.py" \
  "$b/hopper_gemm.py" "$b/fa_ws_bench.py" "$b/sass_hot_loop.py" "$b/sass_opcode_summary.py" \
  "$root/examples/flash_attention_fwd.py" "$root/examples/flash_attention_causal.py"
cp "$b/uniform_run.sh" "$out/go.sh"
cp "$b/uniform_profile.sh" "$out/go2.sh"
du -sh "$out"

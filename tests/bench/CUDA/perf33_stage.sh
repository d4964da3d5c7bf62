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
source "$root/tests/bench/CUDA/stage_common.sh"
b=$root/tests/bench/CUDA
stage_pack "$build" "$old" "$out" "$b/gemm_graph_bench.py" "$b/graph_timing.py" \
  "$b/hopper_gemm.py" "$b/fa_ws_bench.py" "$b/sass_hot_loop.py" \
  "$root/examples/flash_attention_fwd.py" "$root/examples/flash_attention_causal.py"
cp "$b/perf33_run.sh" "$out/go.sh"
du -sh "$out"

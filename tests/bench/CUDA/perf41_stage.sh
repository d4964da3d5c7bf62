#!/bin/bash
# Stages perf41's GPU call (docs/perf/hopper.md, "the banded TMA-store
# epilogue of the persistent 4-stage GEMM") into OUT
# (default build-h200-perf41): new = this tree's tlc-build, old = main's
# (OLD_TLC_BUILD: /work/main/build/bin/tlc-build), through stage_common.sh.
# The lead runs, on the GPU machine, from the repository root with the
# stage carried (one call, at most 7.5 minutes):
#   OUT=$OUT bash build-h200-perf41/go.sh
# Usage: tests/bench/CUDA/perf41_stage.sh NEW_BUILD_DIR OLD_TLC_BUILD [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
old=${2:?the old tlc-build binary}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${3:-$root/build-h200-perf41}
source "$root/tests/bench/CUDA/stage_common.sh"
b=$root/tests/bench/CUDA
stage_pack "$build" "$old" "$out" "$b/hopper_gemm.py" \
  "$b/gemm_graph_bench.py" "$b/graph_timing.py" "$b/sass_hot_loop.py"
cp "$b/perf41_run.sh" "$out/go.sh"
du -sh "$out"

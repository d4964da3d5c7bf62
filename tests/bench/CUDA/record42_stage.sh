#!/bin/bash
# Stages the forty-second session's figures-of-record call (issue 14,
# docs/perf/hopper.md "main measured on the H200") into OUT (default
# build-h200-record42): this tree's tlc-build as both old and new (only
# "new" entries are built), through stage_common.sh. The lead runs, on the
# GPU machine, from the repository root with the stage carried (one call,
# at most 9.5 minutes):
#   OUT=$OUT bash build-h200-record42/go.sh
# Usage: tests/bench/CUDA/record42_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-record42}
source "$root/tests/bench/CUDA/stage_common.sh"
b=$root/tests/bench/CUDA
stage_pack "$build" "$build/bin/tlc-build" "$out" "$b/hopper_gemm.py" "$b/fa_ws_bench.py" \
  "$b/gemm_graph_bench.py" "$b/graph_timing.py" "$b/fa_tiling.py" \
  "$b/fp8_splitk_bench.py" "$b/gemmperf_bench.py" "$b/skinny_gemm.py" \
  "$root/examples/flash_attention_causal.py" "$root/examples/fp8_gemm.py"
cp "$b/record42_run.sh" "$out/go.sh"
du -sh "$out"

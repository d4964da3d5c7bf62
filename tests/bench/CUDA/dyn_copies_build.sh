#!/bin/bash
# Builds issue 13's run-time-extent copies, pointer tensors and safe values
# (tests/lit/Target/Cpp/varlen-copy.py, pointer-tensor.py, safe-value.py)
# for cuda:sm_90a and cuda:sm_80 with their CPU-target references, plus
# tlc-run and dyn_copies_run.sh, into OUT, for one H200 run
# (docs/perf/dyn-copies-h200.md).
# Usage: tests/bench/CUDA/dyn_copies_build.sh BUILD_BIN OUT
set -eu
bin=${1:?build/bin with tlc-build and tlc-run}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:?output directory}
rm -rf "$out"; mkdir -p "$out/bin" "$out/progs"
cp "$bin/tlc-run" "$out/bin/"
cpp=$root/tests/lit/Target/Cpp
for name in varlen-copy pointer-tensor safe-value; do
  for arch in sm_90a sm_80; do
    "$bin/tlc-build" "$cpp/$name.py" --target=cuda:$arch -o "$out/progs/$name/$arch" > /dev/null
    rm -rf "$out/progs/$name/$arch/tlc_device"
  done
  "$bin/tlc-build" "$cpp/$name.py" --target=cpu -o "$out/progs/$name/cpu" > /dev/null
done
cp "$root/tests/bench/CUDA/dyn_copies_run.sh" "$out/"
echo "built into $out"

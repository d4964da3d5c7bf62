#!/bin/bash
# Stages the GPU check of T.copy_cluster on sm_90a (build41; lit
# Target/CUDA/copy-cluster.py) into OUT (default build-h200-build41, ignored
# by git): bin.tar.xz (stripped tlc-build and tlc-run, libtlc_cuda.so), the
# program, its checker and go.sh. The lead runs, on the GPU machine, from
# the repository root with OUT carried:
#   OUT=$OUT bash build-h200-build41/go.sh
# Usage: tests/bench/CUDA/copy_cluster_stage.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-build41}
rm -rf "$out"; mkdir -p "$out/py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/lib"
cp "$build/bin/tlc-build" "$build/bin/tlc-run" "$tmp/bin/"
strip "$tmp/bin/tlc-build" "$tmp/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$tmp/lib/"
strip "$tmp/lib/libtlc_cuda.so"
tar -cJf "$out/bin.tar.xz" -C "$tmp" bin lib
cp "$root/tests/lit/Target/CUDA/copy-cluster.py" \
   "$root/tests/lit/Target/CUDA/Inputs/copy_cluster_check.py" "$out/py/"
cp "$root/tests/bench/CUDA/copy_cluster_run.sh" "$out/go.sh"
du -sh "$out"

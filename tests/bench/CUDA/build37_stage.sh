#!/bin/bash
# Builds build37's GPU evidence (issue 13) into OUT for one H100/H200 run:
# the per-range fragment stores split by rows (tests/lit/Target/CUDA/
# range-fragment-shared-writes.py) for sm_90a and sm_80, the sm_80
# mbarriers (mbarrier-sm80.py) for sm_80 and sm_90a, and the
# warp-specialised GEMM examples of CORPUS (default /work/corpus) that
# the mbarrier change lets build for sm_80, each with its CPU-target
# reference; plus tlc-run and build37_run.sh. An sm_80 build carries its
# PTX, which the driver JIT-compiles on an H100/H200: the sm_80 code path
# (mbarrier.test_wait.parity) runs there.
# Usage: tests/bench/CUDA/build37_stage.sh BUILD_BIN OUT
set -eu
bin=${1:?build/bin with tlc-build and tlc-run}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:?output directory}
corpus=${CORPUS:-/work/corpus}
rm -rf "$out"; mkdir -p "$out/bin" "$out/progs"
cp "$bin/tlc-run" "$out/bin/"
build() { # name file archs...
  local name=$1 file=$2; shift 2
  for arch in "$@"; do
    "$bin/tlc-build" "$file" --target=cuda:$arch --cuda-compiler=nvcc -o "$out/progs/$name/$arch" > /dev/null 2>&1
    rm -rf "$out/progs/$name/$arch/tlc_device"
  done
  "$bin/tlc-build" "$file" --target=cpu -o "$out/progs/$name/cpu" > /dev/null 2>&1
}
lit=$root/tests/lit/Target/CUDA
build range-fragment-shared-writes "$lit/range-fragment-shared-writes.py" sm_90a sm_80
build mbarrier-sm80 "$lit/mbarrier-sm80.py" sm_80 sm_90a
for f in "$corpus"/example_warp_specialize_gemm_*.py "$corpus"/gemm_ws.py; do
  build "$(basename "$f" .py)" "$f" sm_80
done
cp "$root/tests/bench/CUDA/build37_run.sh" "$out/"
echo "built into $out"

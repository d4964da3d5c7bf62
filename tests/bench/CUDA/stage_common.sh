#!/bin/bash
# Shared parts of the GPU stages of issue 14 (perf34 and later; the older
# *_stage.sh / *_run.sh pairs keep their own copies). Sourced, not run.
#
# On the development machine, stage_pack NEW_BUILD OLD_TLC_BUILD OUT FILE...
# fills OUT with the new and old tlc-build and this tree's tlc-run
# (stripped, xz-compressed), libtlc_cuda.so, the Python package (tilelang,
# tvm), _runtime.py as py/tlc_runtime.py, the given bench files in py/ and
# this file.
#
# On the GPU machine, a go.sh in that folder sources it and calls
# stage_begin S W LIMIT: the binaries are unpacked into W/bin, the runtime
# and package are put on the environment, env.log is written, and step /
# late / left keep time against LIMIT seconds (the call's budget):
#   step MSG        appends "time seconds MSG" to $O/steps.log
#   late T WHAT     true (and logged) once more than T seconds are spent
#   left T          seconds left until T (at least 5), for `timeout`

stage_pack() {
  local build=$1 old=$2 out=$3; shift 3
  local root; root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
  rm -rf "$out"; mkdir -p "$out/bin" "$out/lib" "$out/py"
  cp "$build/bin/tlc-build" "$out/bin/tlc-build-new"
  cp "$old" "$out/bin/tlc-build-old"
  cp "$build/bin/tlc-run" "$out/bin/"
  strip "$out/bin/"*
  xz -T2 -6 "$out/bin/tlc-build-new" "$out/bin/tlc-build-old" "$out/bin/tlc-run"
  cp "$build/lib/libtlc_cuda.so" "$out/lib/"
  cp -r "$root/python/tilelang" "$root/python/tvm" "$out/"
  cp "$root/python/tilelang/_runtime.py" "$out/py/tlc_runtime.py"
  cp "$@" "$out/py/"
  cp "$root/tests/bench/CUDA/stage_common.sh" "$out/"
  find "$out" -name __pycache__ -prune -exec rm -rf {} +
}

stage_begin() {
  S=$1; W=$2; LIMIT=$3
  O=${OUT:-/tmp/out}; mkdir -p "$O"
  rm -rf "$W"; mkdir -p "$W/bin"
  local b
  for b in tlc-build-old tlc-build-new tlc-run; do
    xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"
  done
  export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so PYTHONPATH=$S PYTHONUNBUFFERED=1
  RUN=$W/bin/tlc-run; P=$S/py
  step start
  { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
    (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
    python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
}

step() { echo "$(date +%T) ${SECONDS}s $*" >> "$O/steps.log"; }
late() { [ "$SECONDS" -gt "$1" ] && { step "skipped $2: ${SECONDS}s spent"; return 0; }; return 1; }
left() { local t=$(($1 - SECONDS)); [ "$t" -lt 5 ] && t=5; echo "$t"; }

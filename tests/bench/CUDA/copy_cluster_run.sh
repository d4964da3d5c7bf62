#!/bin/bash
# The GPU check of T.copy_cluster (build41), staged by copy_cluster_stage.sh
# as S/go.sh. Run from the repository root on an sm_90 GPU machine:
#   OUT=$OUT bash S/go.sh
# Logs in $OUT:
#   env.log        GPU, driver, nvcc
#   check.log      copy-cluster.py's kernels built for cuda:sm_90a (the
#                  machine's nvcc) and cpu, run on the GPU against NumPy
#                  and (shared_tile, push_stores) tlc-run --verify against
#                  the CPU target (copy_cluster_check.py ... cuda)
#   sanitizer.log  compute-sanitizer memcheck and racecheck of every kernel
#   steps.log      when each step ended
# Under 5 minutes.
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
T=/tmp/tlc-build41-stage; rm -rf "$T"; mkdir -p "$T"
tar -xJf "$S/bin.tar.xz" -C "$T"
export TLC_CUDA_RUNTIME=$T/lib/libtlc_cuda.so TLC_CACHE_DIR=/tmp/tlc-cache-build41
B=$T/bin/tlc-build; RUN=$T/bin/tlc-run
W=/tmp/build41-work; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $SECONDS s $*" >> "$O/steps.log"; }
step start
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2; } > "$O/env.log" 2>&1
timeout 240 "$B" "$S/py/copy-cluster.py" --target=cuda:sm_90a -o "$W/cu" > "$O/check.log" 2>&1
for k in shared_tile shared_tile4 push_stores; do
  timeout 240 "$B" "$S/py/copy-cluster.py" --target=cpu -o "$W/cpu" --kernel $k >> "$O/check.log" 2>&1
done
step built
timeout 120 python3 "$S/py/copy_cluster_check.py" "$RUN" "$W/cu" "$W/cpu" "$W/run" cuda >> "$O/check.log" 2>&1
echo "check rc $?" >> "$O/check.log"
step checked
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for m in "$W"/cu/*.json; do
  for tool in memcheck racecheck; do
    echo "== $tool $(basename "$m")" >> "$O/sanitizer.log"
    timeout 60 "$CS" --tool "$tool" --error-exitcode 9 "$RUN" "$m" --device cuda \
      >> "$O/sanitizer.log" 2>&1
    echo "rc $?" >> "$O/sanitizer.log"
  done
done
step sanitized

#!/bin/bash
# One H200 call for tile-gemm-cluster (docs/perf/hopper.md, 2026-12-05),
# staged by cluster_stage.sh as S/go.sh next to bin.tar.xz (stripped
# tlc-build, tlc-run, libtlc_cuda.so), the Python package and the bench
# scripts. Run from the repository root on the GPU machine:
#   OUT=$OUT bash S/go.sh
# Everything is built there (tlc-build with the machine's nvcc, 16 jobs);
# logs in $OUT:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     clustered GEMMs at ragged sizes on the GPU against the
#                  CPU target (tlc-run --verify --reference)
#   sass.log       registers, spills, multicast loads (UTMALDG) per kernel
#   bench.log      gemm_graph_bench.py, CONFIGS=cluster: every kernel
#                  checked against float64 torch, then timed with
#                  CUDA-graph replays (L2 flushed, median of 30) next to
#                  torch.matmul in the same process
#   sanitizer.log  compute-sanitizer memcheck and racecheck on one small
#                  clustered instance (persistent ping-pong, one pair)
#   steps.log      when each step ended
# The whole call stays under 6 minutes (timeouts below).
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
T=/tmp/tlc-cluster-stage; rm -rf "$T"; mkdir -p "$T"
tar -xJf "$S/bin.tar.xz" -C "$T"
export TLC_BUILD=$T/bin/tlc-build TLC_CUDA_RUNTIME=$T/lib/libtlc_cuda.so
export PYTHONPATH=$S TLC_CACHE_DIR=/tmp/tlc-cache-cluster PYTHONUNBUFFERED=1
B=$T/bin/tlc-build; RUN=$T/bin/tlc-run
hg=$S/py/hopper_gemm.py; bench=$S/py/gemm_graph_bench.py
W=/tmp/cluster-verify; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $SECONDS s $*" >> "$O/steps.log"; }
step start
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
  python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
cl=--pass-config=tlc.gemm_cluster=True
# name | bindings. Ragged (no dimension a multiple of its tile); pairs
# along y (B shared) and x (A shared), not persistent and persistent (an
# odd tlc.num_sms made even), ping-pong, TMA store, the program's panels.
verify=(
  "cl_nn_f16_t256_y|-DM=1000 -DN=1000 -DK=200 -Dnum_stages=4 --pass-config=tlc.persistent=False"
  "cl_tn_bf16_t256_y|-DM=1000 -DN=1000 -DK=328 -Dtrans_B=True -Ddtype=T.bfloat16 -Dpanel=2 --pass-config=tlc.persistent=False"
  "cl_nn_f16_m256_x_sms7|-DM=1000 -DN=1000 -DK=264 -Dblock_M=256 -Dblock_N=128 -Dnum_stages=3 --pass-config=tlc.num_sms=7"
  "cl_tn_f16_pp_x_st_sms7|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Dtrans_B=True --pass-config=tlc.gemm_pingpong=True --pass-config=tlc.tma_store=True --pass-config=tlc.num_sms=7"
  "cl_nn_bf16_pp_x_132|-DM=3000 -DN=2000 -DK=264 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Ddtype=T.bfloat16"
  "cl_nn_f16_t256_y_132|-DM=4000 -DN=3000 -DK=520 -Dnum_stages=4"
  "cl_nn_f16_pp_small_sms3|-DM=376 -DN=504 -DK=200 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 --pass-config=tlc.gemm_pingpong=True --pass-config=tlc.num_sms=3"
)
jobs=()
for v in "${verify[@]}"; do
  IFS='|' read -r name defs <<< "$v"
  jobs+=("$W/$name/cuda|--target=cuda:sm_90a $defs $cl" "$W/$name/cpu|--target=cpu $defs")
done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$B"'" "'"$hg"'" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' > "$O/verify.log" 2>&1
# The bench kernels, into the build cache, 16 processes.
for i in $(seq 0 15); do
  CONFIGS=cluster timeout 150 python3 "$bench" --build-only --shard "$i/16" 4096 8192 8192x8192x1024 16384x16384x4096 > "$W/build-$i.log" 2>&1 &
done
wait
grep -h FAILED "$W"/build-*.log >> "$O/verify.log"
echo "bench kernels built: $(cat "$W"/build-*.log | grep -c '^built')" >> "$O/verify.log"
step built
for v in "${verify[@]}"; do
  IFS='|' read -r name defs <<< "$v"
  grep -q "tmaLoadMulticast<" "$W/$name/cuda/"*.cu || echo "$name: NOT CLUSTERED" >> "$O/verify.log"
  echo "=== $name" >> "$O/verify.log"
  timeout 30 "$RUN" "$W/$name/cuda" --device cuda --verify --reference "$W/$name/cpu" --seed 7 >> "$O/verify.log" 2>&1
  echo "rc=$?" >> "$O/verify.log"
done
echo "PASS $(grep -c 'verify C: PASS' "$O/verify.log") of ${#verify[@]}" | tee -a "$O/verify.log"
step verified
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for c in "$W"/*/cuda/*.cubin $(grep -l "tmaLoadMulticast<" "$TLC_CACHE_DIR"/python/*/matmul.cu 2>/dev/null | head -3 | sed 's/\.cu$/.cubin/'); do
  [ -f "$c" ] || continue
  sass=$("$OBJ" -sass "$c")
  echo "$c: $("$OBJ" --dump-resource-usage "$c" 2>&1 | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | head -1)" \
       "HGMMA $(grep -c HGMMA <<< "$sass") UTMALDG $(grep -c 'UTMALDG' <<< "$sass") MULTICAST $(grep -c 'UTMALDG.*MULTICAST' <<< "$sass")" \
       "STL $(grep -c 'STL' <<< "$sass") LDL $(grep -c 'LDL' <<< "$sass")" >> "$O/sass.log"
done
step sass
sanitize() {  # instance tool: compute-sanitizer within the 6-minute budget
  local left=$((200 - SECONDS)); [ "$left" -gt 30 ] && left=30
  if [ "$left" -lt 15 ]; then echo "=== $2 $1: skipped (no time left)" >> "$O/sanitizer.log"; return; fi
  echo "=== compute-sanitizer --tool $2 $1" >> "$O/sanitizer.log"
  timeout "$left" compute-sanitizer --tool "$2" "$RUN" "$W/$1/cuda" --device cuda --verify --reference "$W/$1/cpu" 2>&1 | tail -4 >> "$O/sanitizer.log"
  step "sanitizer $2 $1"
}
# The sanitizers on the small instance (4 x 3 tiles, one pair of blocks,
# ping-pong), then the bench until 5 min 40 s.
sanitize cl_nn_f16_pp_small_sms3 memcheck
sanitize cl_nn_f16_pp_small_sms3 racecheck
CONFIGS=cluster timeout $((340 - SECONDS)) python3 "$bench" 4096 8192 8192x8192x1024 16384x16384x4096 > "$O/bench.log" 2>&1
echo "bench rc=$?" >> "$O/bench.log"
step bench
tail -12 "$O/bench.log"
grep -v "^  " "$O/verify.log" | tail -20
cat "$O/sanitizer.log"

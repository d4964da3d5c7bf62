#!/bin/bash
# One H200 call for tile-gemm-pingpong (docs/perf/hopper-gemm-pingpong.md),
# staged by pingpong_stage.sh as S/go.sh next to a stripped tlc-build,
# tlc-run and libtlc_cuda.so. Run from the repository root on the GPU
# machine: OUT=$OUT bash S/go.sh (S carries the Python package and the
# bench scripts, so any checkout will do). Everything is built there (tlc-build with
# the machine's nvcc and host compiler, 16 jobs); logs in $OUT:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     ping-pong GEMMs at ragged sizes on the GPU against the
#                  CPU target (tlc-run --verify)
#   sass.log       registers, spills (STL/LDL), named barriers per kernel
#   bench.log      gemm_graph_bench.py, CONFIGS=pingpong,skinny_best: every
#                  kernel checked against float64 torch, then timed with
#                  CUDA-graph replays (L2 flushed, median of 30) next to
#                  torch.matmul
#   sanitizer.log  compute-sanitizer memcheck and racecheck on small
#                  ping-pong instances
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
export PYTHONPATH=$S TLC_CACHE_DIR=/tmp/tlc-cache-pingpong PYTHONUNBUFFERED=1
B=$S/bin/tlc-build; RUN=$S/bin/tlc-run
hg=$S/py/hopper_gemm.py; pg=$S/py/pingpong_gemm.py; bench=$S/py/gemm_graph_bench.py
W=/tmp/pingpong-verify; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $*" >> "$O/steps.log"; }
step start
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
  python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
pp=--pass-config=tlc.gemm_pingpong=True
# name | file | bindings. Ragged (no dimension a multiple of its tile);
# blocks of odd and even tile counts, blocks of one tile, ring positions
# that wrap within and across tiles.
verify=(
  "pp_nn_f16_s4_sms2|$hg|-DM=376 -DN=600 -DK=200 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 --pass-config=tlc.num_sms=2"
  "pp_tn_bf16_s3_sms5|$hg|-DM=250 -DN=376 -DK=136 -Dthreads=128 -Dblock_N=128 -Dnum_stages=3 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=5"
  "pp_nn_f16_s4_132|$hg|-DM=3000 -DN=2000 -DK=264 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "pp_tn_bf16_st_sms7|$hg|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.tma_store=True --pass-config=tlc.num_sms=7"
  "pp_tn_f16_m64n256_sms5|$hg|-DM=1000 -DN=1000 -DK=200 -Dthreads=128 -Dblock_M=64 -Dblock_N=256 -Dnum_stages=3 -Dtrans_B=True --pass-config=tlc.num_sms=5"
  "pp_relu_f16_sms3|$pg|-DM=1000 -DN=600 -DK=200 --pass-config=tlc.num_sms=3"
)
jobs=()
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  jobs+=("$W/$name/cuda|$file|--target=cuda:sm_90a $defs $pp" "$W/$name/cpu|$file|--target=cpu $defs")
done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o f d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$B"'" "$f" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' > "$O/verify.log" 2>&1
# The bench kernels, into the build cache, 16 processes.
for i in $(seq 0 15); do
  CONFIGS=pingpong,skinny_best python3 "$bench" --build-only --shard "$i/16" > "$W/build-$i.log" 2>&1 &
done
wait
grep -h FAILED "$W"/build-*.log >> "$O/verify.log"
echo "bench kernels built: $(cat "$W"/build-*.log | grep -c '^built')" >> "$O/verify.log"
step built
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  grep -q "2 \* gridDim.x" "$W/$name/cuda/"*.cu || echo "$name: NOT PING-PONG" >> "$O/verify.log"
  echo "=== $name" >> "$O/verify.log"
  timeout 30 "$RUN" "$W/$name/cuda" --device cuda --verify --reference "$W/$name/cpu" --seed 7 >> "$O/verify.log" 2>&1
  echo "rc=$?" >> "$O/verify.log"
done
echo "PASS $(grep -c 'verify C: PASS' "$O/verify.log") of ${#verify[@]}" | tee -a "$O/verify.log"
step verified
# Registers and spills of the verification kernels and of one ping-pong and
# one 128 x 256 bench kernel from the cache.
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for c in "$W"/*/cuda/*.cubin $(grep -l "2 \* gridDim.x" "$TLC_CACHE_DIR"/python/*/matmul.cu | head -3 | sed 's/\.cu$/.cubin/'); do
  [ -f "$c" ] || continue
  sass=$("$OBJ" -sass "$c")
  echo "$c: $("$OBJ" --dump-resource-usage "$c" 2>&1 | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | head -1)" \
       "HGMMA $(grep -c HGMMA <<< "$sass") STL $(grep -c 'STL' <<< "$sass") LDL $(grep -c 'LDL' <<< "$sass")" \
       "BAR.SYNC $(grep -c 'BAR.SYNC' <<< "$sass") BAR.ARV $(grep -c 'BAR.ARV' <<< "$sass")" >> "$O/sass.log"
done
step sass
sanitize() {  # instance tool: compute-sanitizer within what is left of the 600 s
  local left=$((580 - SECONDS)); [ "$left" -gt 90 ] && left=90
  if [ "$left" -lt 15 ]; then echo "=== $2 $1: skipped (no time left)" >> "$O/sanitizer.log"; return; fi
  echo "=== compute-sanitizer --tool $2 $1" >> "$O/sanitizer.log"
  timeout "$left" compute-sanitizer --tool "$2" "$RUN" "$W/$1/cuda" --device cuda --verify --reference "$W/$1/cpu" 2>&1 | tail -4 >> "$O/sanitizer.log"
  step "sanitizer $2 $1"
}
# The small staged-epilogue instance first (15 tiles on 2 blocks), then the
# bench, then the TMA-store instance if time is left.
sanitize pp_nn_f16_s4_sms2 memcheck
sanitize pp_nn_f16_s4_sms2 racecheck
CONFIGS=pingpong,skinny_best timeout $((520 - SECONDS)) python3 "$bench" > "$O/bench.log" 2>&1
echo "bench rc=$?" >> "$O/bench.log"
step bench
sanitize pp_tn_bf16_st_sms7 memcheck
sanitize pp_tn_bf16_st_sms7 racecheck
tail -3 "$O/bench.log"
cat "$O/verify.log" | grep -v "^  " | tail -20

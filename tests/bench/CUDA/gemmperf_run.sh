#!/bin/bash
# One H200 call for branch gemmperf (issue 14's GEMM goal; docs/perf/
# hopper-gemm-skinny.md), staged by gemmperf_stage.sh as S/go.sh next to a
# stripped tlc-build, tlc-run and libtlc_cuda.so. Run from the repository
# root on the GPU machine: OUT=$OUT bash S/go.sh. Everything is built there
# (the machine's nvcc, 16 jobs); logs in $OUT:
#   env.log        GPU, driver, nvcc, torch
#   verify.log     the skinny programs at ragged sizes on the GPU against
#                  the CPU target (tlc-run --verify)
#   sass.log       registers and spills of the verification kernels
#   sanitizer.log  compute-sanitizer memcheck and racecheck of the serial
#                  split-K (its counters and the last block's reads)
#   bench.log      gemmperf_bench.py: every kernel checked against float64
#                  torch (bench shape and, skinny programs, a ragged one),
#                  then timed with CUDA-graph replays (L2 flushed, median
#                  of 30) next to torch.matmul, $REPS (3) times
#   clocks.log     gemm_clocks.py: SM clock and power of 4096^3 GEMMs held
#                  busy for 2 s each (tlc and torch), if time is left
#   steps.log      when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
export PYTHONPATH=$S TLC_CACHE_DIR=/tmp/tlc-cache-gemmperf PYTHONUNBUFFERED=1
B=$S/bin/tlc-build; RUN=$S/bin/tlc-run
sg=$S/py/skinny_gemm.py; bench=$S/py/gemmperf_bench.py
W=/tmp/gemmperf-verify; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $SECONDS s $*" >> "$O/steps.log"; }
step "start (staged from $(cat "$S/commit" 2>/dev/null))"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  (command -v nvcc || echo /usr/local/cuda/bin/nvcc); nvcc --version 2>&1 | tail -2
  python3 -c "import torch; print('torch', torch.__version__)"; } > "$O/env.log" 2>&1
# name | kernel | bindings | tlc-run options. Ragged (no dimension a
# multiple of its tile).
verify=(
  "serial_nn_f16_s3|splitk_serial|-DM=40 -DN=328 -DK=520 -Dsplit_k=3 -Dnum_stages=4|--fill Lock=const(0)"
  "serial_tn_bf16_s4|splitk_serial|-DM=100 -DN=1000 -DK=1000 -Dsplit_k=4 -Dnum_stages=6 -Dtrans_B=True -Ddtype=T.bfloat16|--fill Lock=const(0)"
  "serial_nn_f16_s8_big|splitk_serial|-DM=16 -DN=8192 -DK=8192 -Dsplit_k=8 -Dnum_stages=6|--fill Lock=const(0)"
  "atomic_nn_f16_s4|splitk_atomic|-DM=40 -DN=328 -DK=520 -Dsplit_k=4 -Dnum_stages=4|--fill C=const(0) --accumulation C=4"
  "streamk_tn_f16|streamk_atomic|-DM=40 -DN=300 -DK=1000 -Dprograms=7 -Dtrans_B=True|--fill C=const(0) --accumulation C=6"
)
jobs=()
for v in "${verify[@]}"; do
  IFS='|' read -r name kernel defs opts <<< "$v"
  jobs+=("$W/$name/cuda|$kernel|--target=cuda:sm_90a $defs" "$W/$name/cpu|$kernel|--target=cpu $defs")
done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o k d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$B"'" "'"$sg"'" --kernel "$k" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' > "$O/verify.log" 2>&1
# The bench kernels, into the build cache, 16 processes.
for i in $(seq 0 15); do
  python3 "$bench" --build-only --shard "$i/16" > "$W/build-$i.log" 2>&1 &
done
wait
grep -h FAILED "$W"/build-*.log >> "$O/verify.log"
echo "bench kernels built: $(cat "$W"/build-*.log | grep -c '^built')" >> "$O/verify.log"
step built
for v in "${verify[@]}"; do
  IFS='|' read -r name kernel defs opts <<< "$v"
  echo "=== $name" >> "$O/verify.log"
  timeout 60 "$RUN" "$W/$name/cuda" --device cuda --verify --reference "$W/$name/cpu" --seed 7 $opts >> "$O/verify.log" 2>&1
  echo "rc=$?" >> "$O/verify.log"
done
echo "PASS $(grep -c 'verify C: PASS' "$O/verify.log") of ${#verify[@]}" | tee -a "$O/verify.log"
step verified
OBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for c in "$W"/*/cuda/*.cubin; do
  [ -f "$c" ] || continue
  sass=$("$OBJ" -sass "$c")
  echo "$c: $("$OBJ" --dump-resource-usage "$c" 2>&1 | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | head -1)" \
       "HGMMA $(grep -c HGMMA <<< "$sass") STL $(grep -c 'STL' <<< "$sass") LDL $(grep -c 'LDL' <<< "$sass")" \
       "MEMBAR $(grep -c 'MEMBAR' <<< "$sass")" >> "$O/sass.log"
done
sanitize() {  # instance tool options: compute-sanitizer within what is left
  local left=$((570 - SECONDS)); [ "$left" -gt 60 ] && left=60
  if [ "$left" -lt 15 ]; then echo "=== $2 $1: skipped (no time left)" >> "$O/sanitizer.log"; return; fi
  echo "=== compute-sanitizer --tool $2 $1" >> "$O/sanitizer.log"
  timeout "$left" compute-sanitizer --tool "$2" "$RUN" "$W/$1/cuda" --device cuda --verify --reference "$W/$1/cpu" $3 2>&1 | tail -4 >> "$O/sanitizer.log"
  step "sanitizer $2 $1"
}
sanitize serial_nn_f16_s3 memcheck "--fill Lock=const(0)"
sanitize serial_nn_f16_s3 racecheck "--fill Lock=const(0)"
REPS=${REPS:-3} timeout $((500 - SECONDS)) python3 "$bench" skinny big > "$O/bench.log" 2>&1
echo "bench rc=$?" >> "$O/bench.log"
step bench
# SM clock and power of 4096^3 held busy (tlc 128 x 256, 128 x 128
# ping-pong, torch.matmul), if time is left.
if [ $SECONDS -lt 500 ]; then
  timeout $((560 - SECONDS)) python3 "$S/py/gemm_clocks.py" 2 > "$O/clocks.log" 2>&1
  step clocks
fi
sanitize serial_tn_bf16_s4 memcheck "--fill Lock=const(0)"
sanitize serial_tn_bf16_s4 synccheck "--fill Lock=const(0)"
grep -E "^\[|best|all shapes" "$O/bench.log"
grep -E "PASS|FAIL|rc=" "$O/verify.log" | tail -20

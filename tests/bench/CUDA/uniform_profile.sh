#!/bin/bash
# Second GPU call for the warp-uniform warpgroup index, staged by
# uniform_stage.sh as S/go2.sh. Run from the repository root on the GPU
# machine: OUT=$OUT bash S/go2.sh (about 3-4 minutes). Builds the 4096^3
# f16 ping-pong (pp) and 128 x 256 (wide) GEMMs with the old and the new
# tlc-build, then:
#   bench2.log    tlc-run --bench (median of 50) of each, old and new
#                 alternating, twice
#   opcodes.log   Nsight Compute SourceCounters of one launch of each,
#                 summarised by sass_opcode_summary.py (warp instructions
#                 executed, opcode shares, stall samples by opcode: the
#                 measurement of docs/perf/hopper.md's "SASS opcode mix"
#                 section, old next to new); the .src.csv files are in
#                 $OUT/ncu/
#   steps.log     when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O/ncu"
W=/tmp/uniform32-profile; rm -rf "$W"; mkdir -p "$W/bin"
for b in tlc-build-old tlc-build-new tlc-run; do
  xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"
done
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
RUN=$W/bin/tlc-run; P=$S/py
step() { echo "$(date +%T) ${SECONDS}s $*" >> "$O/steps.log"; }
step start
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)
pp="-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
wide="-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
for which in old new; do
  "$W/bin/tlc-build-$which" "$P/hopper_gemm.py" --target=cuda:sm_90a -o "$W/${which}_pp" $pp > /dev/null &
  "$W/bin/tlc-build-$which" "$P/hopper_gemm.py" --target=cuda:sm_90a -o "$W/${which}_wide" $wide > /dev/null &
done
wait
step built
for round in 1 2; do
  for n in old_pp new_pp old_wide new_wide; do
    echo "=== $n (round $round)" >> "$O/bench2.log"
    timeout 60 "$RUN" "$W/$n" --device cuda --bench --bench-runs=50 --seed 1 2>&1 | grep -i "median\|time\|TFLOP" >> "$O/bench2.log"
  done
done
step bench
for n in old_pp new_pp old_wide new_wide; do
  [ "$SECONDS" -gt 500 ] && { step "skipped ncu $n"; continue; }
  timeout 90 "$NCU" --clock-control none -k regex:matmul -c 1 --section SourceCounters \
    -f -o "$W/$n" "$RUN" "$W/$n" --device cuda --seed 1 > "$O/ncu/$n.log" 2>&1
  "$NCU" --import "$W/$n.ncu-rep" --page source --print-source sass --csv > "$O/ncu/$n.src.csv" 2>> "$O/ncu/$n.log"
  step "ncu $n"
done
python3 "$P/sass_opcode_summary.py" "$O/ncu" old_pp new_pp old_wide new_wide > "$O/opcodes.log" 2>&1
cat "$O/opcodes.log" "$O/bench2.log"

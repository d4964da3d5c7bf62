#!/bin/bash
# Issue 13: the corpus programs' rounding-step disagreements against a
# float64 oracle on the H200 (rounding_oracle.py). For each program the GPU
# runs on tlc-run's seeded inputs and saves them with its outputs; the CPU
# target runs on the same inputs (--inputs); the oracle then takes every
# element where the two differ beyond bf16's tolerance, and 8 random
# chunk/head blocks, and reports |X - oracle| / bound for both back ends.
# S holds bin/, corpus/, scripts/ (stage_h200.sh). Usage:
#   OUT=DIR bash h200_numerics3.sh S
# (DEVICE=sim SIZE='-DS=512 -DH=4' THREADS=2: the same on the development
# machine, reduced.)
S=${1:-$(dirname "$0")}; O=${OUT:-out}; mkdir -p $O; A=${WORK:-/tmp/numerics3}; mkdir -p $A
export TLC_CACHE_DIR=/tmp/tlc-cache
P=${PYTHON:-python3}
SECONDS=0
for nk in examples__gdn__example_chunk_o:chunk_o examples__gdn__example_wy_fast:wy_fast examples__KDA__wy_fast:wy_fast_kda; do
  n=${nk%:*}; k=${nk#*:}; W=$A/$n
  $S/bin/tlc-build --target=cuda:sm_90a -o $W/cuda $SIZE $S/corpus/$n.py > $O/$n.build 2>&1 &&
  $S/bin/tlc-build --target=cpu --layouts-of=cuda:sm_90a -o $W/cpu $SIZE $S/corpus/$n.py >> $O/$n.build 2>&1 || { echo "$n: build failed"; continue; }
  $S/bin/tlc-run $W/cuda --device ${DEVICE:-cuda} --threads ${THREADS:-16} --save $W/gpu > $O/$n.txt 2>&1
  $S/bin/tlc-run $W/cpu --threads ${THREADS:-16} --inputs $W/gpu/inputs --save $W/cpu-out >> $O/$n.txt 2>&1
  $P $S/scripts/rounding_oracle.py $k $W/gpu/inputs $W/gpu $W/cpu-out >> $O/$n.txt 2>&1
  echo "oracle $n rc=$? ${SECONDS}s" >> $O/$n.txt
  rm -rf $W
  grep -v "^  ran" $O/$n.txt | tail -30
done

#!/bin/bash
# Ping-pong FlashAttention (tlc.ws_pingpong) under racecheck, repeated, with
# the full hazard reports kept: the hopper branch's run reported 2 hazards
# once on fwd D64, 128x64 tiles, seq_len 200 and 0 on a rerun.
# Usage (device, repository root): bash THIS BUILD_H200_DIR [REPEATS]
B=${1:-build-h200-main}/bin; R=${2:-3}; A=/tmp/pprace; mkdir -p $A
fa=examples/flash_attention_fwd.py
d="-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=64 -Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"
pp=--pass-config=tlc.ws_pingpong=True
$B/tlc-build $fa --target=cuda:sm_90a $pp -o $A/cuda $d > /dev/null || exit 1
$B/tlc-build $fa --target=cpu -o $A/cpu $d > /dev/null || exit 1
grep -c "namedBarrier\|bar.sync\|bar_sync" $A/cuda/*.cu | head -1
$B/tlc-run $A/cuda --device cuda --reference $A/cpu --verify 2>&1 | tail -2
for i in $(seq $R); do
  echo "== racecheck $i"
  compute-sanitizer --tool racecheck --racecheck-report all --print-limit 20 \
    $B/tlc-run $A/cuda --device cuda --reference $A/cpu --verify 2>&1 | grep -v "^  ran:" | tail -60
done

#!/bin/bash
# Merged main: warp-specialised FlashAttention (threads=256) at ragged sizes
# vs the CPU target, then memcheck + racecheck on the small ones.
B=${1:-build-h200-main}/bin; A=/tmp/wsfa; mkdir -p $A
fa=examples/flash_attention_fwd.py; fac=examples/flash_attention_causal.py
t="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
cases=("fa_d128|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t"
       "fa_d64|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 $t"
       "fac_d128|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t"
       "fa_small|$fa|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=64 $t"
       "fac_small|$fac|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=128 $t")
for c in "${cases[@]}"; do IFS='|' read -r n f d <<< "$c"
  $B/tlc-build $f --target=cuda:sm_90a -o $A/$n/cuda $d >/dev/null 2>$A/$n.err &
  $B/tlc-build $f --target=cpu -o $A/$n/cpu $d >/dev/null 2>>$A/$n.err &
done; wait
for c in "${cases[@]}"; do IFS='|' read -r n f d <<< "$c"
  ws=$(grep -c "setMaxNReg\|setmaxnreg" $A/$n/cuda/*.cu | head -1)
  echo "== $n (setmaxnreg lines: $ws)"
  $B/tlc-run $A/$n/cuda --device cuda --reference $A/$n/cpu --verify 2>&1 | tail -3
done
for n in fa_small fac_small; do for tool in memcheck racecheck; do
  echo "== $n $tool"; compute-sanitizer --tool $tool $B/tlc-run $A/$n/cuda --device cuda --reference $A/$n/cpu --verify 2>&1 | tail -3
done; done

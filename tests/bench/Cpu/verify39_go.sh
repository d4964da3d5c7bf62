#!/bin/bash
# verify39 (at most ~290 s) on the H100: (1) topk_selector_3stages' three
# kernels on the inputs corpus_inputs.py gives each (never compared
# before); (2) linear_attn_fwd at -DB=1 -DH=1 on the GPU against a float64
# model of its float16 roundings (linear_attn_fwd_model.py: which side is
# off for runs 9-16's 7,374 O elements); (3) example_mha_bwd_bhsd and
# example_gqa_bwd at their own sizes on corpus_inputs.py's attn_bwd inputs
# (runs 14-16 ran them on random lse / Delta); (4) tlc-run --device cuda
# --verify timings, old vs new tlc-run (speed.sh: linear_attn_bwd/fwd at
# their own sizes, reference on 16 threads, this branch's runargs).
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/env.log
for b in tlc-run tlc-run-old; do
  [ -f $S/bin/$b ] || xz -dc $S/bin/$b.xz > $S/bin/$b; chmod +x $S/bin/$b
done
timeout 30 $S/bin/tlc-run --device cuda --verify --threads 16 --reference $S/topk3/cpu \
  --inputs $S/topk3/inputs --verify-as-set index --verify-as-set candidate_idx \
  $S/topk3/cuda > $O/topk3.txt 2>&1; echo "topk3 rc=$?" >> $O/topk3.txt
grep -v "^  ran:" $O/topk3.txt
timeout 30 $S/bin/tlc-run --device cuda --seed 0 --save /tmp/laf-gpu $S/laf/cuda > $O/laf.txt 2>&1
timeout 30 python3 $S/laf/linear_attn_fwd_model.py /tmp/laf-gpu >> $O/laf.txt 2>&1
cat $O/laf.txt
for d in $S/check/*/; do
  n=$(basename $d); in=/tmp/in-$n; rm -rf $in
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' $S/runargs.txt)
  timeout 60 python3 $S/scripts/corpus_inputs.py $n $d/cpu $in > $O/$n.txt 2>&1
  timeout 50 $S/bin/tlc-run --device cuda --verify --timings --threads 16 --reference $d/cpu \
    $d/cuda ${extra//@INPUTS@/$in} >> $O/$n.txt 2>&1; echo "$n rc=$?" >> $O/$n.txt
  grep -v "^  ran:" $O/$n.txt
done
timeout 150 bash $S/speed.sh > $O/speed.txt 2>&1
cat $O/speed.txt

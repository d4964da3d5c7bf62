#!/bin/bash
# Issue 13 part 2, the disagreements examined by the numerics branch, on
# the H200 (S holds bin/tlc-build, bin/tlc-run, corpus/ and scripts/, the
# Python files of tests/bench/numerics). Usage: OUT=DIR bash h200_numerics.sh S
#  1. stream-K GEMM: the GPU's C and the CPU target's on the same inputs,
#     then streamk_orders.py: is each differing element, on both sides, a
#     sum of the same f16 atomic additions in some order?
#     The same comparisons with --accumulation (stream-K: 6 atomic
#     additions per element; split-K: 4).
#  2. NSA varlen with valid inputs (nsa_varlen.py make): GPU against the
#     CPU target and against the float64 oracle.
#  3. mamba chunk_state and chunk_scan at their own size: tlc-run's normal inputs, then
#     inputs of the script's kind (--fill).
#  4. the delta-rule recurrences with gates <= 0 and keys of norm ~1
#     (--fill), which bound the state.
S=${1:-$(dirname "$0")}; O=${OUT:-out}; mkdir -p $O; A=/tmp/numerics; mkdir -p $A
export TLC_CACHE_DIR=/tmp/tlc-cache
P=${PYTHON:-python3}
b() { # name
  $S/bin/tlc-build --target=cuda:sm_90a -o $A/$1/cuda $S/corpus/$1.py > $O/$1.build 2>&1 &&
  $S/bin/tlc-build --target=cpu --layouts-of=cuda:sm_90a -o $A/$1/cpu $S/corpus/$1.py >> $O/$1.build 2>&1
}
SECONDS=0
n=examples__gemm_streamk__example_tilelang_gemm_streamk
b $n && {
  $S/bin/tlc-run $A/$n/cuda --device cuda --verify --reference $A/$n/cpu --save $A/$n/gpu > $O/streamk.txt 2>&1
  $S/bin/tlc-run $A/$n/cpu --inputs $A/$n/gpu/inputs --save $A/$n/cpuout >> $O/streamk.txt 2>&1
  $P $S/scripts/streamk_orders.py $A/$n/gpu/inputs $A/$n/gpu $A/$n/cpuout >> $O/streamk.txt 2>&1; }
$S/bin/tlc-run $A/$n/cuda --device cuda --verify --reference $A/$n/cpu --accumulation C=6 >> $O/streamk.txt 2>&1
n=examples__gemm_splitk__example_tilelang_gemm_splitk
b $n && $S/bin/tlc-run $A/$n/cuda --device cuda --verify --reference $A/$n/cpu --accumulation C=4 > $O/splitk.txt 2>&1
echo "streamk done ${SECONDS}s"
n=examples__deepseek_nsa__example_tilelang_nsa_fwd_varlen
b $n && { mkdir -p $A/nsa_in && $P $S/scripts/nsa_varlen.py make $A/nsa_in &&
  $S/bin/tlc-run $A/$n/cuda --device cuda --inputs $A/nsa_in --verify --reference $A/$n/cpu --save $A/$n/gpu > $O/nsa.txt 2>&1
  $P $S/scripts/nsa_varlen.py check $A/nsa_in $A/$n/gpu >> $O/nsa.txt 2>&1; }
echo "nsa done ${SECONDS}s"
for n in examples__linear_attention__example_mamba_chunk_state examples__linear_attention__example_mamba_chunk_scan; do
b $n && {
  timeout 120 $S/bin/tlc-run $A/$n/cuda --device cuda --verify --threads 16 --reference $A/$n/cpu > $O/$n.txt 2>&1
  timeout 120 $S/bin/tlc-run $A/$n/cuda --device cuda --verify --threads 16 --reference $A/$n/cpu \
    --fill 'dA_cumsum=uniform(-1,0)' --fill 'dt=uniform(0,0.1)' >> $O/$n.txt 2>&1; }
done
echo "mamba done ${SECONDS}s"
for n in examples__gdn__example_chunk_delta_h:G examples__KDA__chunk_delta_h_fwd:GK examples__KDA__chunk_delta_bwd:GK; do
  g=${n#*:}; n=${n%:*}
  b $n && timeout 150 $S/bin/tlc-run $A/$n/cuda --device cuda --verify --threads 16 --reference $A/$n/cpu \
    --fill "$g=uniform(-0.1,0)" --fill 'K=normal(0,0.088)' --fill 'W=normal(0,0.088)' > $O/$n.txt 2>&1
  echo "$n done ${SECONDS}s"
done
# 5. FlashAttention backward with the inputs of its own forward: lse and
#    Delta from the CPU target's forward and preprocess kernels (tlc-run's
#    random lse makes P = exp2(s - lse) reach 2^8 and the f16 dS / dK / dV
#    large), dQ zeroed as the script does; then with --accumulation dQ=16
#    (1024 / 64 key blocks each add to every dQ element with f32 atomics).
n=examples__flash_attention__example_mha_bwd_bshd
b $n && bash $S/scripts/mha_bwd_chain.sh $S $A/$n "--device cuda --reference $A/$n/cpu" > $O/mha_bwd.txt 2>&1
echo "mha_bwd done ${SECONDS}s"
grep -h "verify\|error\|differ\|reachable\|oracle\|exact" $O/*.txt

#!/bin/bash
# FlashAttention backward (examples/flash_attention/example_mha_bwd_bshd)
# verified on the inputs its own forward gives: usage
#   mha_bwd_chain.sh S ART "TLC-RUN OPTIONS FOR THE BACKWARD"
# with ART/cpu (and ART/cuda) the tlc-build outputs of the file. The CPU
# target runs the forward (Output, lse) and the preprocess (Delta from O and
# a random dO); their files are the backward's --inputs, dQ zeroed.
S=$1; ART=$2; OPTS=$3; C=$ART/chain; T=${THREADS:-16}
P=${PYTHON:-python3}
rm -rf $C && mkdir -p $C/in
$S/bin/tlc-run $ART/cpu --kernel flashattn_fwd --threads $T --save $C/fwd | grep -v "^  ran"
cp $C/fwd/inputs/Q.npy $C/fwd/inputs/K.npy $C/fwd/inputs/V.npy $C/fwd/lse.npy $C/in/
cp $C/fwd/Output.npy $C/in/O.npy
$S/bin/tlc-run $ART/cpu --kernel flashattn_bwd_preprocess --threads $T --inputs $C/in --seed 1 --save $C/prep | grep -v "^  ran"
cp $C/prep/inputs/dO.npy $C/prep/Delta.npy $C/in/
$P -c "import numpy as np; q = np.load('$C/in/Q.npy'); np.save('$C/in/dQ.npy', np.zeros(q.shape, np.float32))"
D=$ART/cpu; case "$OPTS" in *cuda*) D=$ART/cuda;; esac
$S/bin/tlc-run $D --kernel flashattn_bwd --threads $T --inputs $C/in --verify $OPTS
$S/bin/tlc-run $D --kernel flashattn_bwd --threads $T --inputs $C/in --verify $OPTS --accumulation dQ=16

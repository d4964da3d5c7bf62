#!/bin/bash
# Stages the corpus check and the oracle runs of the numerics3 branch into
# DIR (default build-h200-numerics3 of the worktree): bin/tlc-build,
# bin/tlc-run (from BUILD, default build), corpus/ (CORPUS, default
# /work/corpus: every example program and its sibling modules),
# scripts/ (tests/bench/numerics/*.py), runargs.txt
# (corpus-runargs.txt), corpus_check.sh and h200_numerics3.sh.
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
D=${1:-$R/build-h200-numerics3}; B=${BUILD:-$R/build}; C=${CORPUS:-/work/corpus}
rm -rf $D && mkdir -p $D/bin $D/corpus $D/scripts
cp $B/bin/tlc-build $B/bin/tlc-run $D/bin/
cp $C/examples__*.py $D/corpus/
for f in $C/*.py; do case $(basename $f) in examples__*) ;; *) cp $f $D/corpus/;; esac; done
cp $R/tests/bench/numerics/*.py $D/scripts/
cp $R/tests/bench/numerics/corpus-runargs.txt $D/runargs.txt
cp $R/tests/bench/CUDA/corpus_check.sh $R/tests/bench/numerics/h200_numerics3.sh $D/
du -sh $D

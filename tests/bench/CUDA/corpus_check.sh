#!/bin/bash
# Corpus check on the H200: every TileLang file of S/corpus (or
# S/$CORPUS; a tree of folders is walked, its files named by their path
# under it with '/' as '__', so a program imports its sibling modules as
# in its repository) built for cuda:sm_90a and cpu with tlc-build on the device
# host (16 cores), then tlc-run --device cuda --verify against the CPU
# target with the same inputs. Usage (S holds bin/tlc-build, bin/tlc-run
# and the corpus): LIMIT=SECONDS PAR=N OUT=DIR bash corpus_check.sh S
# One line per file in summary.txt (and in partial.txt as each finishes,
# for a run cut short), the verify lines in runlogs.txt. BUILD_LIMIT
# (seconds, default 120 for cuda and 240 for cpu) bounds each build;
# THREADS (default 4) is tlc-run's --threads for the CPU reference.
# The CPU reference follows sm_90a's fragment layouts (--layouts-of).
# S/runargs.txt, when present, gives tlc-run options per file (lines "NAME
# OPTIONS...", e.g. tests/bench/numerics/corpus-runargs.txt). An
# OPTIONS containing @INPUTS@ first runs S/scripts/corpus_inputs.py NAME
# (tests/bench/numerics: valid inputs of the program's contract, from the
# CPU artifact's manifests) into a folder that replaces @INPUTS@; what the
# generator prints (-D of scalar parameters) joins OPTIONS. The generation
# is outside LIMIT. Each verify line ends with tlc-run's --timings (inputs,
# copy, run, reference, compare: where a slow program's seconds go).
S=${1:-$(dirname "$0")}; O=${OUT:-out}; mkdir -p $O/logs
A=/tmp/art; mkdir -p $A
export TLC_CACHE_DIR=/tmp/tlc-cache
# The name of a corpus file: its path under the corpus, '/' written '__'.
name() { local r=${1#$S/${CORPUS:-corpus}/}; r=${r%.py}; echo "${r//\//__}"; }
build() { # file
  n=$(name $1)
  timeout ${BUILD_LIMIT:-120} $S/bin/tlc-build --target=cuda:sm_90a -o $A/cuda/$n $1 > $O/logs/$n.build-cuda 2>&1; echo "cuda $?" > $A/$n.rc
  timeout ${BUILD_LIMIT:-240} $S/bin/tlc-build --target=cpu --layouts-of=cuda:sm_90a -o $A/cpu/$n $1 > $O/logs/$n.build-cpu 2>&1; echo "cpu $?" >> $A/$n.rc
}
export -f name build; export S O A CORPUS
SECONDS=0
find $S/${CORPUS:-corpus} -name '*.py' | sort | xargs -P 16 -I{} bash -c 'build {}'
echo "built in ${SECONDS}s"
verify() {
  n=$(name $1)
  if grep -q "cuda 0" $A/$n.rc && grep -q "cpu 0" $A/$n.rc; then
    t0=$SECONDS
    # Per-program tlc-run options (inputs that suit the kernel, tolerances
    # of order-free sums): lines "NAME OPTIONS..." of $S/runargs.txt.
    extra=$( [ -f $S/runargs.txt ] && awk -v n=$n '$1 == n { $1 = ""; print }' $S/runargs.txt )
    if [[ "$extra" == *@INPUTS@* ]]; then
      d=$A/inputs/$n; rm -rf $d; mkdir -p $d
      more=$(${PYTHON:-python3} $S/scripts/corpus_inputs.py $n $A/cpu/$n $d 2> $O/logs/$n.inputs) ||
        echo "corpus_inputs.py $n failed: $(tail -1 $O/logs/$n.inputs)" > $O/logs/$n.run
      extra="${extra//@INPUTS@/$d} $more"
      t0=$SECONDS
    fi
    timeout ${LIMIT:-60} $S/bin/tlc-run --device cuda --verify --timings --threads ${THREADS:-4} --reference $A/cpu/$n $A/cuda/$n $extra >> $O/logs/$n.run 2>&1; rc=$?
    rm -rf $A/inputs/$n
    echo "$n run=$rc $((SECONDS-t0))s" | tee -a $O/partial.txt
  else
    echo "$n build=$(tr '\n' ' ' < $A/$n.rc)" | tee -a $O/partial.txt
  fi
}
export -f verify
find $S/${CORPUS:-corpus} -name '*.py' | sort | xargs -P ${PAR:-4} -I{} bash -c 'verify {}' | sort > $O/summary.txt
echo "total ${SECONDS}s"
cat $O/summary.txt
for f in $O/logs/*.run; do echo "=== $f"; grep -v "^  ran:" $f | tail -12; done > $O/runlogs.txt
for f in $O/logs/*.build-*; do echo "=== $f"; grep -i "error" $f | head -5; done > $O/buildlogs.txt
rm -rf $O/logs

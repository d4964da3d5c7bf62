#!/bin/bash
# Fifth run of the public scripts on the H200
# (docs/perf/python-public-scripts-h200.md): like h200_public_scripts.sh, but
# every script must end by TOTAL seconds after the batch starts (its own
# limit is the smaller of LIMIT and the time left; one that would start with
# under 5 s left is listed as "not finished"), so a large batch fits one
# short device call. Stage, next to this file as go.sh:
#   bin/tlc-build lib/libtlc_cuda.so python/{tilelang,tvm} corpus/*.py
# and run from the repository root:  LIMIT=50 PAR=14 TOTAL=140 bash STAGE/go.sh
# LONG="a.py b.py" LONG_LIMIT=S: those scripts (test files of a hundred
# kernel builds) start first and have S seconds (within TOTAL).
# A stage with corpus/index.txt ("NAME PATH" per line, made by
# h200_stage_public_scripts.sh) holds the scripts at their upstream paths:
# NAME (a file name, or DIR/FILE where two directories hold FILE) is run
# from PATH's directory, so it imports that directory's siblings; logs and
# done.txt name it NAME. Without index.txt, corpus/*.py are the scripts.
# RUNNER= is the command that runs a script (default python3); a dry run
# on a machine without a GPU gives "python3 REPO/tests/python/cuda_script_on_cpu.py".
S=$(cd "$(dirname "$0")" && pwd)
# A stage made with PACK=1 holds its binaries compressed (the device
# tool's carry limit): unpacked here first.
for f in "$S/bin/tlc-build" "$S/lib/libtlc_cuda.so"; do
  [ -e "$f.xz" ] && [ ! -e "$f" ] && xz -dk "$f.xz"
done
OUT=${OUT:-/tmp/out}; LIMIT=${LIMIT:-50}; PAR=${PAR:-12}; TOTAL=${TOTAL:-140}
LONG=${LONG:-}; LONG_LIMIT=${LONG_LIMIT:-$LIMIT}
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH \
  TLC_CACHE_DIR=${TLC_CACHE_DIR:-/tmp/tlc-cache} LIMIT OUT LONG LONG_LIMIT RUNNER
LOGDIR=${LOGDIR:-/tmp/logs}; export LOGDIR
mkdir -p $OUT $LOGDIR
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" >> $OUT/machine.txt 2>&1
cd $S/corpus
# NAME -> path of the script (itself without index.txt).
where() {
  if [ -f "$S/corpus/index.txt" ]; then
    awk -v n="$1" '$1 == n { print $2 }' "$S/corpus/index.txt"
  else
    echo "$1"
  fi
}
names() {
  if [ -f "$S/corpus/index.txt" ]; then awk '{print $1}' "$S/corpus/index.txt"
  else ls *.py; fi
}
one() {
  local f=$1 s e rc left limit=$LIMIT p lg
  p=$(where "$f"); lg=$LOGDIR/${f//\//:}.log
  [ -n "$p" ] || { printf "%-52s not staged\n" "$f" >> $OUT/done.txt; return 0; }
  case " $LONG " in *" $f "*) limit=$LONG_LIMIT ;; esac
  left=$(( DEADLINE - $(date +%s) ))
  [ $left -gt $limit ] && left=$limit
  [ $left -lt 5 ] && return 0
  s=$(date +%s%N)
  (cd "$S/corpus/$(dirname "$p")" && timeout $left ${RUNNER:-python3} "$(basename "$p")") > $lg 2>&1; rc=$?
  e=$(date +%s%N)
  printf "%-52s rc=%-3d %6.1fs | %s\n" "$f" $rc "$(( (e - s) / 100000000 ))e-1" \
    "$(grep -v '^ *$' $lg | tail -1 | cut -c1-160)" >> $OUT/done.txt
}
export -f one where
export S
export DEADLINE=$(( $(date +%s) + TOTAL ))
: > $OUT/done.txt
{ for f in $LONG; do echo "$f"; done
  for f in ${SCRIPTS:-$(names)}; do
    case " $LONG " in *" $f "*) ;; *) echo "$f" ;; esac
  done; } | xargs -P $PAR -I{} bash -c 'one {}'
for f in ${SCRIPTS:-$(names)}; do
  awk -v n="$f" '$1 == n { f = 1 } END { exit !f }' $OUT/done.txt || printf "%-52s not finished in the batch's %ss\n" "$f" $TOTAL >> $OUT/done.txt
done
sort $OUT/done.txt > $OUT/summary.txt
for f in $LOGDIR/*.log; do n=$(basename $f .log); echo "===== ${n//://}"; tail -c 3000 $f; done > $OUT/logs.txt

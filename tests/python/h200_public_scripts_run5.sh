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
  TLC_CACHE_DIR=${TLC_CACHE_DIR:-/tmp/tlc-cache} LIMIT OUT LONG LONG_LIMIT
mkdir -p $OUT /tmp/logs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" >> $OUT/machine.txt 2>&1
cd $S/corpus
one() {
  local f=$1 s e rc left limit=$LIMIT
  case " $LONG " in *" $f "*) limit=$LONG_LIMIT ;; esac
  left=$(( DEADLINE - $(date +%s) ))
  [ $left -gt $limit ] && left=$limit
  [ $left -lt 5 ] && return 0
  s=$(date +%s%N)
  timeout $left python3 "$f" > /tmp/logs/$f.log 2>&1; rc=$?
  e=$(date +%s%N)
  printf "%-52s rc=%-3d %6.1fs | %s\n" "$f" $rc "$(( (e - s) / 100000000 ))e-1" \
    "$(grep -v '^ *$' /tmp/logs/$f.log | tail -1 | cut -c1-160)" >> $OUT/done.txt
}
export -f one
export DEADLINE=$(( $(date +%s) + TOTAL ))
: > $OUT/done.txt
{ for f in $LONG; do echo "$f"; done
  for f in ${SCRIPTS:-$(ls *.py)}; do
    case " $LONG " in *" $f "*) ;; *) echo "$f" ;; esac
  done; } | xargs -P $PAR -I{} bash -c 'one {}'
for f in ${SCRIPTS:-$(ls *.py)}; do
  grep -q "^$f " $OUT/done.txt || printf "%-52s not finished in the batch's %ss\n" "$f" $TOTAL >> $OUT/done.txt
done
sort $OUT/done.txt > $OUT/summary.txt
for f in /tmp/logs/*.log; do echo "===== $(basename $f .log)"; tail -c 3000 $f; done > $OUT/logs.txt

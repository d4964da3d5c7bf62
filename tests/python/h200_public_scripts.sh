#!/bin/bash
# Public TileLang example scripts, unchanged, through python/tilelang on the
# H200 (docs/perf/python-public-scripts-h200.md). The scripts are not part of
# the repository: stage them with the package and the static tools as
#   $STAGE/bin/tlc-build  $STAGE/lib/libtlc_cuda.so  $STAGE/python/tilelang
#   $STAGE/corpus/*.py    (the public files, as fetched)
# and run from the repository root:  STAGE=build-h200-NAME bash THIS_FILE
# Each script runs as `python3 SCRIPT` in the corpus folder (scripts import
# their siblings), PAR at a time, each within LIMIT seconds; its exit status is
# its own reference check. Writes $OUT/summary.txt and $OUT/logs.txt; then
# runs POST (a command, in the corpus folder, with the same environment) into
# $OUT/post.txt when it is set.
S=$(cd "${STAGE:?set STAGE}" && pwd)
OUT=${OUT:-/tmp/out}; LIMIT=${LIMIT:-150}; PAR=${PAR:-5}
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH \
  TLC_CACHE_DIR=${TLC_CACHE_DIR:-/tmp/tlc-cache} LIMIT
mkdir -p $OUT /tmp/logs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
cd $S/corpus
one() {
  local f=$1 s e rc
  s=$(date +%s%N)
  timeout $LIMIT python3 "$f" > /tmp/logs/$f.log 2>&1; rc=$?
  e=$(date +%s%N)
  printf "%-44s rc=%-3d %6.1fs | %s\n" "$f" $rc "$(( (e - s) / 100000000 ))e-1" \
    "$(grep -v '^ *$' /tmp/logs/$f.log | tail -1 | cut -c1-160)"
}
export -f one
ls ${SCRIPTS:-*.py} | grep -v -x -F -f <(printf '%s\n' ${HELPERS:-}) |
  xargs -P $PAR -I{} bash -c 'one {}' | sort | tee $OUT/summary.txt
for f in /tmp/logs/*.log; do echo "===== $(basename $f .log)"; tail -c 6000 $f; done > $OUT/logs.txt
if [ -n "${POST:-}" ]; then
  bash -c "$POST" > $OUT/post.txt 2>&1; echo "POST rc=$?" >> $OUT/post.txt
fi

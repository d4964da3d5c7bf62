#!/bin/bash
# Stages the public-script run of docs/perf/python-public-scripts-h200.md
# (fifth run and later) for the device tool, which copies the lead's
# checkout: run from that checkout's root after building tlc-build and
# tlc_cuda there. The public scripts stay out of the repository: the stage
# is an ignored folder (/build*/), removed after the run.
#   bash tests/python/h200_stage_public_scripts.sh [STAGE]
# then, on the device (carry STAGE):
#   LIMIT=45 PAR=14 TOTAL=150 bash STAGE/go.sh
# STAGE/scripts.txt lists the scripts of the log LOG (default: the eleventh
# run's, docs/perf/python-public-scripts-h200-run11.log) that the stage
# holds, so a later run can be compared with it:
#   cd STAGE && SCRIPTS="$(cat scripts.txt)" LIMIT=45 PAR=14 TOTAL=200 bash go.sh
# PACK=1 compresses bin/tlc-build and lib/libtlc_cuda.so with xz (go.sh
# unpacks them), for the device tool's 64 MiB carry limit.
# Folders of fetched scripts that are missing are skipped.
# Corpus files named like examples__gemm__example_gemm.py are staged under
# their own file name (example_gemm.py), as the logs name them, unless a
# file of that name is staged already (the fetched scripts' own siblings:
# examples__gdn__utils.py replaced deepseek_v32's utils.py in run 10, which
# fp8_lighting_indexer and sparse_mla_* import); the two Blackwell-only
# GEMMs are left out, as in the fifth run. The FLA_KDA package folder of
# /work/corpus-tests (imported by the KDA examples) is staged too.
set -e
S=${1:-build-h200-python}
rm -rf "$S"
mkdir -p "$S/bin" "$S/lib" "$S/python" "$S/corpus"
cp build/bin/tlc-build "$S/bin/" && strip "$S/bin/tlc-build"
cp build/lib/libtlc_cuda.so "$S/lib/"
cp -r python/tilelang python/tvm "$S/python/"
find "$S/python" -name __pycache__ -prune -exec rm -rf {} +
for d in /work/corpus /work/corpus-tests; do
  [ -d "$d" ] || continue
  for f in "$d"/*.py; do
    [ -e "$f" ] && cp "$f" "$S/corpus/${f##*/}"
  done
done
[ -d /work/corpus-tests/FLA_KDA ] && cp -r /work/corpus-tests/FLA_KDA "$S/corpus/"
for f in "$S"/corpus/*__*.py; do
  [ -e "$f" ] && mv -n "$f" "$S/corpus/${f##*__}"
  rm -f "$f"
done
rm -f "$S/corpus/gemm_tcgen5mma_ws_persistent.py" \
  "$S/corpus/gemm_mxfp8_blockscaled_1d1d.py"
cp tests/python/h200_public_scripts_run5.sh "$S/go.sh"
LOG=${LOG:-docs/perf/python-public-scripts-h200-run11.log}
grep -E '^\S+\.py +(rc=|not finished)' "$LOG" |
  awk '{print $1}' | while read -r f; do
    [ -e "$S/corpus/$f" ] && echo "$f"
  done > "$S/scripts.txt"
find "$S" -name __pycache__ -prune -exec rm -rf {} +
if [ "${PACK:-0}" = 1 ]; then
  xz -T2 -f "$S/bin/tlc-build" "$S/lib/libtlc_cuda.so"
fi
echo "scripts.txt: $(wc -l < "$S/scripts.txt") of $LOG's" \
  "$(grep -cE '^\S+\.py +(rc=|not finished)' "$LOG") scripts"
echo "staged $(ls "$S"/corpus/*.py | wc -l) scripts in $S ($(du -sh "$S" | cut -f1))"

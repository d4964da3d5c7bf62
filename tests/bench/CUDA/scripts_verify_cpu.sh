#!/bin/bash
# The public TileLang scripts on the H200 with every kernel call checked
# against the cpu target (TLC_VERIFY_CPU=1, python/tilelang/_verify_cpu.py):
# each kernel instance's first call runs on the GPU as usual and its
# cpu-target build runs on host copies of the same arguments; the package
# prints one "[tlc-verify-cpu]" line per checked call. Staged as go.sh by
# scripts_verify_cpu_stage.sh next to bin/tlc-build, lib/libtlc_cuda.so,
# python/{tilelang,tvm} and corpus/*.py; run from anywhere:
#   LIMIT=150 PAR=4 TOTAL=540 OUT=DIR bash STAGE/go.sh
# LIMIT: seconds per script (cut to what is left of TOTAL; a script that
# would start with under 10 s left is "not started"); PAR scripts at once,
# each CPU twin on nproc/PAR threads (TLC_CPU_THREADS); SCRIPTS overrides
# STAGE/scripts.txt; a script listed in STAGE/args.txt runs with the
# smaller sizes given there (its own options) unless OWN_SIZES=1; STRICT=1 runs with TLC_VERIFY_CPU=strict; PY is the
# interpreter command (a dry run without a GPU: PY="python3
# tests/python/cuda_script_on_cpu.py" TLC_VERIFY_CPU_SELF=1, which checks
# the cpu-target kernels against a second build of themselves).
# Writes OUT/summary.txt (one line per script: exit status, seconds,
# agree / differ / no CPU twin / twin failed / not checkable counts, the
# log's last line), OUT/kernels.txt (every per-call line, prefixed with
# its script), OUT/totals.txt and OUT/logs.txt (each log's tail).
S=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}; PY=${PY:-python3}; LIMIT=${LIMIT:-150}; PAR=${PAR:-4}; TOTAL=${TOTAL:-540}
threads=$(( $(nproc) / PAR )); [ $threads -lt 1 ] && threads=1
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH \
  TLC_CACHE_DIR=${TLC_CACHE_DIR:-/tmp/tlc-cache} LIMIT OUT PY \
  TLC_VERIFY_CPU=$([ -n "$STRICT" ] && echo strict || echo 1) \
  TLC_VERIFY_CPU_CALLS=${CALLS:-1} TLC_CPU_THREADS=${TLC_CPU_THREADS:-$threads}
L=/tmp/pv-logs; rm -rf $L; mkdir -p $OUT $L
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/machine.txt 2>&1
${PY%% *} -c "import torch; print('torch', torch.__version__)" >> $OUT/machine.txt 2>&1
echo "nproc $(nproc), TLC_CPU_THREADS=$TLC_CPU_THREADS, commit $(cat $S/commit.txt 2>/dev/null)" >> $OUT/machine.txt
cd $S/corpus
one() {
  local f=$1 s e rc left tag args
  left=$(( DEADLINE - $(date +%s) ))
  [ $left -gt $LIMIT ] && left=$LIMIT
  if [ $left -lt 10 ]; then
    printf "%-52s not started (the batch's time was spent)\n" "$f" >> $OUT/done.txt
    return 0
  fi
  args=
  [ -z "$OWN_SIZES" ] && [ -f $S/args.txt ] && \
    args=$(awk -v f="$f" '$1 == f {$1 = ""; print}' $S/args.txt)
  s=$(date +%s%N)
  timeout $left $PY "$f" $args > $L/$f.log 2>&1; rc=$?
  e=$(date +%s%N)
  tag=$(grep '^\[tlc-verify-cpu\]' $L/$f.log | grep -v '\] summary:' | awk '
    / agree$/ {a++} / DIFFER / {d++} /could not build CPU twin/ {n++}
    /CPU twin failed/ {f++} /not checked/ {c++}
    END {printf "agree=%d differ=%d no_twin=%d twin_failed=%d not_checked=%d", a, d, n, f, c}')
  printf "%-52s rc=%-3d %6.1fs %s%s | %s\n" "$f" $rc "$(( (e - s) / 100000000 ))e-1" \
    "$tag" "${args:+ args:$args}" "$(grep -v '^ *$' $L/$f.log | grep -v '^\[tlc-verify-cpu\]' | tail -1 | cut -c1-140)" >> $OUT/done.txt
}
export -f one
export DEADLINE=$(( $(date +%s) + TOTAL )) L S OWN_SIZES
: > $OUT/done.txt
LIST=${SCRIPTS:-$(cat $S/scripts.txt)}
printf '%s\n' $LIST | xargs -P $PAR -I{} bash -c 'one {}'
sort $OUT/done.txt > $OUT/summary.txt
for f in $LIST; do
  [ -f $L/$f.log ] || continue
  grep '^\[tlc-verify-cpu\]' $L/$f.log | grep -v '\] summary:' | sed "s|^|$f: |"
done > $OUT/kernels.txt
{
  echo "scripts: $(printf '%s\n' $LIST | wc -l), run: $(grep -c ' rc=' $OUT/summary.txt)," \
    "exit 0: $(grep -c ' rc=0 ' $OUT/summary.txt), cut at the limit: $(grep -c ' rc=124 ' $OUT/summary.txt)"
  echo "checked calls: $(grep -c -e ' agree$' -e ' DIFFER ' $OUT/kernels.txt)"
  echo "  agree: $(grep -c ' agree$' $OUT/kernels.txt)"
  echo "  differ: $(grep -c ' DIFFER ' $OUT/kernels.txt)"
  echo "could not build CPU twin: $(grep -c 'could not build CPU twin' $OUT/kernels.txt)"
  echo "CPU twin failed to run: $(grep -c 'CPU twin failed' $OUT/kernels.txt)"
  echo "not checkable (address arguments, graph capture): $(grep -c 'not checked' $OUT/kernels.txt)"
} > $OUT/totals.txt
cat $OUT/totals.txt
for f in $L/*.log; do echo "===== $(basename $f .log)"; tail -c 2500 $f; done > $OUT/logs.txt

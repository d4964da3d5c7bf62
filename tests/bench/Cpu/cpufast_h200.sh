#!/bin/bash
# The CPU reference on the H200 host (16 cores) for the programs corpus run
# 8 stopped at 40 s (docs/perf/corpus-h200.md) and MInference's
# vertical-slash attention (newly built for cpu), at their own sizes.
# Staged by cpufast_stage.sh as S/go.sh next to bins.tar.xz (new/: this
# branch's tlc-build, tlc-run; old/: main's; lib/libtlc_cuda.so) and
# corpus/ (the public programs, not part of the repository). Run on the GPU machine:
#   OUT=$OUT bash S/go.sh
# Steps, each program in parallel (16 jobs): build cpu with both tlc-builds
# and cuda:sm_90a with the new one; then, until DEADLINE seconds (default
# 480) have passed since the start:
#   1. new-cpu:   new tlc-run --device cpu --threads 16 --timings (cap 90 s)
#   2. verify:    new tlc-run --device cuda --verify --threads 16 --timings
#                 --reference NEWCPU CUDA (cap 90 s)
#   3. old-cpu:   old tlc-run --device cpu --threads 16 (cap 45 s)
# ONLY=NAME runs one program (a check of the script elsewhere).
# Output: $OUT/summary.txt (one line per step and program: wall seconds,
# exit status, timings), $OUT/logs/*.
set -u
S0=$(cd "$(dirname "$0")" && pwd)
# The staged binaries (bins.tar.xz: new/, old/, lib/) unpacked next to a
# link to the programs.
S=/tmp/cpufast-stage
rm -rf "$S"
mkdir -p "$S"
tar -C "$S" -xJf "$S0/bins.tar.xz"
ln -s "$S0/corpus" "$S/corpus"
cp "$S0/commit" "$S/commit"
O=${OUT:-/tmp/out}
mkdir -p "$O/logs"
A=/tmp/cpufast-art
rm -rf "$A"
mkdir -p "$A"
T=${THREADS:-16}
DEADLINE=${DEADLINE:-480}
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
SUM=$O/summary.txt
echo "# $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2);" \
  "threads $T; staged from $(cat "$S/commit")" > "$SUM"
# name | file under corpus/ | tlc-run options
CASES="
conv_analyze|examples__analyze__example_conv_analyze.py|
sparse_mla_fwd_pipelined|examples__deepseek_v32__sparse_mla_fwd_pipelined.py|
sparse_attn_fwd_sm90|examples__deepseek_v4__sparse_attn_fwd_sm90.py|
fusedmoe_tilelang|examples__fusedmoe__example_fusedmoe_tilelang.py|
gemm_autotune_pipeline_strategy|examples__gemm__example_gemm_autotune_pipeline_strategy.py|
linear_attn_bwd|examples__linear_attention__example_linear_attn_bwd.py|
ws_gemm_barrierpipe_stage2|examples__warp_specialize__example_warp_specialize_gemm_barrierpipe_stage2.py|
minference_vs_sparse_attn|examples__minference__example_vertical_slash_sparse_attn.py|--fill BlockCount=randint(0,20) --fill BlockOffset=randint(0,16000) --fill ColumnCount=randint(0,300) --fill ColumnIndex=randint(0,16384)
"
[ -n "${ONLY:-}" ] && CASES=$(echo "$CASES" | grep "^$ONLY|")
build() { # name file
  n=$1 f=$S/corpus/$2
  TLC_CACHE_DIR=/tmp/cpufast-cache-new timeout 300 "$S/new/tlc-build" \
    --target=cpu -o "$A/newcpu/$n" "$f" > "$O/logs/$n.build-newcpu" 2>&1
  echo "build newcpu $n rc=$?" >> "$O/logs/builds"
  TLC_CACHE_DIR=/tmp/cpufast-cache-new timeout 300 "$S/new/tlc-build" \
    --target=cuda:sm_90a -o "$A/cuda/$n" "$f" > "$O/logs/$n.build-cuda" 2>&1
  echo "build cuda $n rc=$?" >> "$O/logs/builds"
  TLC_CACHE_DIR=/tmp/cpufast-cache-old timeout 300 "$S/old/tlc-build" \
    --target=cpu -o "$A/oldcpu/$n" "$f" > "$O/logs/$n.build-oldcpu" 2>&1
  echo "build oldcpu $n rc=$?" >> "$O/logs/builds"
}
export -f build
export S O A
SECONDS=0
echo "$CASES" | awk -F'|' 'NF >= 2 { print $1, $2 }' |
  xargs -P 8 -L 1 bash -c 'build "$@"' _
echo "# built in ${SECONDS}s" >> "$SUM"
grep -v "rc=0" "$O/logs/builds" >> "$SUM"
timed() { # what name cap command...
  what=$1 name=$2 cap=$3
  shift 3
  left=$((DEADLINE - SECONDS))
  if [ "$left" -le 5 ]; then
    printf '%-8s %-34s %8s %s\n' "$what" "$name" - "not run (deadline)" >> "$SUM"
    return
  fi
  [ "$cap" -gt "$left" ] && cap=$left
  log=$O/logs/$name.$what
  t0=$(date +%s.%N)
  timeout "$cap" "$@" < /dev/null > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  res="rc=$rc"
  [ "$rc" = 124 ] && res="over $cap s (stopped)"
  printf '%-8s %-34s %8.1f %s %s %s\n' "$what" "$name" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$res" \
    "$(grep -m1 'timings:' "$log" | sed 's/^ *//')" \
    "$(grep -c 'verify.*PASS' "$log") PASS $(grep -c 'verify.*FAIL' "$log") FAIL" >> "$SUM"
}
each() { # what
  echo "$CASES" | while IFS='|' read -r name file opts; do
    [ -z "$name" ] && continue
    # shellcheck disable=SC2086
    case $1 in
      new-cpu) [ -d "$A/newcpu/$name" ] &&
          timed new-cpu "$name" 90 "$S/new/tlc-run" --device cpu --threads "$T" \
            --timings $opts "$A/newcpu/$name" ;;
      verify) [ -d "$A/newcpu/$name" ] && [ -d "$A/cuda/$name" ] &&
          timed verify "$name" 90 "$S/new/tlc-run" --device cuda --verify \
            --threads "$T" --timings $opts --reference "$A/newcpu/$name" \
            "$A/cuda/$name" ;;
      old-cpu) [ -d "$A/oldcpu/$name" ] &&
          timed old-cpu "$name" 45 "$S/old/tlc-run" --device cpu --threads "$T" \
            $opts "$A/oldcpu/$name" ;;
    esac
  done
}
each new-cpu
each verify
each old-cpu
echo "# done at ${SECONDS}s" >> "$SUM"
cat "$SUM"

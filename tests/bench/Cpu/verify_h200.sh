#!/bin/bash
# The CPU reference as the H200 verification uses it: for each corpus case
# of cases.txt (FILE under corpus/), `tlc-run --device cuda --verify
# --threads T --reference CPUDIR CUDADIR` (GPU run, CPU reference on the same
# inputs, comparison) with this tlc, then the verification with the previous
# tlc (its tlc-run and CPU artifacts; the CUDA artifact is this tlc's), then
# `tlc-run --device cpu --threads T` alone, each under its cap, until the
# deadline. See docs/perf/cpu-target-h200.md.
#
# Usage: [THREADS=N] [DEADLINE=SECONDS] [OLD_CAP=SECONDS] bash verify_h200.sh STAGE OUT
#   Each run is capped by its case's CAP (the old tlc's verification also by
#   OLD_CAP, default 30); DEADLINE (default 420) bounds all runs together,
#   TOTAL (seconds) the whole script, builds included.
#   STAGE holds new/{tlc-build,tlc-run}, old/{tlc-build,tlc-run} and corpus/
#   (public programs, not part of the repository); CASES=FILE replaces
#   cases.txt (only its lines whose FILE starts with corpus/ are used).
S=$(cd "$1" && pwd)
OUT=${2:-out}
CASES=${CASES:-$(cd "$(dirname "$0")" && pwd)/cases.txt}
mkdir -p "$OUT/logs"
A=/tmp/cpu12-art
rm -rf $A
mkdir -p $A
T=${THREADS:-$(nproc)}
echo "# $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); threads $T"
grep -v '^#' "$CASES" | awk '$4 ~ /^corpus\// { print $2, $3, $4 }' > $A/list
build() { # name cap file
  n=$1 f=$S/$3
  TLC_CACHE_DIR=/tmp/cpu12-cache-new timeout 300 "$S/new/tlc-build" --target=cpu \
    -o "$A/newcpu/$n" "$f" > "$OUT/logs/$n.build-newcpu" 2>&1
  TLC_CACHE_DIR=/tmp/cpu12-cache-new timeout 300 "$S/new/tlc-build" \
    --target=cuda:sm_90a -o "$A/cuda/$n" "$f" > "$OUT/logs/$n.build-cuda" 2>&1
  TLC_CACHE_DIR=/tmp/cpu12-cache-old timeout 300 "$S/old/tlc-build" --target=cpu \
    -o "$A/oldcpu/$n" "$f" > "$OUT/logs/$n.build-oldcpu" 2>&1
}
export -f build
export S OUT A
SECONDS=0
xargs -P "$(nproc)" -L 1 bash -c 'build "$@"' _ < $A/list
echo "# built in ${SECONDS}s"
END=$((SECONDS + ${DEADLINE:-420}))
# TOTAL: a bound on the whole script, builds included.
[ -n "$TOTAL" ] && [ "$TOTAL" -lt "$END" ] && END=$TOTAL
printf '%-10s %-44s %8s %s\n' what program wall_s result
# One timed command: what name cap command...
timed() {
  what=$1 name=$2 cap=$3
  shift 3
  left=$((END - SECONDS))
  if [ "$left" -le 3 ]; then
    printf '%-10s %-44s %8s %s\n' "$what" "$name" - "not run (deadline)"
    return
  fi
  [ "$cap" -gt "$left" ] && cap=$left
  log="$OUT/logs/$name.$what"
  t0=$(date +%s.%N)
  timeout "$cap" "$@" < /dev/null > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  case $rc in
    0) res=ok ;;
    124) res="over ${cap} s (stopped)" ;;
    *) res="rc=$rc: $(grep -m1 -i -E 'error|FAIL' "$log" | cut -c1-120)" ;;
  esac
  case $what in
    *verify) [ "$rc" != 124 ] &&
        res="$res ($(grep -c 'verify.*PASS' "$log") outputs PASS, $(grep -c 'verify.*FAIL' "$log") FAIL)" ;;
  esac
  printf '%-10s %-44s %8.1f %s\n' "$what" "$name" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$res"
}
run_all() { # what
  while read -r name cap file; do
    oldcap=${OLD_CAP:-30}
    [ "$oldcap" -gt "$cap" ] && oldcap=$cap
    case $1 in
      new-verify) [ -d "$A/newcpu/$name" ] && [ -d "$A/cuda/$name" ] || {
          printf '%-10s %-44s %8s %s\n' "$1" "$name" - "not built"; continue; }
        timed new-verify "$name" "$cap" "$S/new/tlc-run" --device cuda --verify \
          --threads "$T" --reference "$A/newcpu/$name" "$A/cuda/$name" ;;
      new-cpu) [ -d "$A/newcpu/$name" ] || continue
        timed new-cpu "$name" "$cap" "$S/new/tlc-run" --device cpu \
          --threads "$T" "$A/newcpu/$name" ;;
      old-verify) [ -d "$A/oldcpu/$name" ] && [ -d "$A/cuda/$name" ] || continue
        timed old-verify "$name" "$oldcap" "$S/old/tlc-run" --device cuda \
          --verify --threads "$T" --reference "$A/oldcpu/$name" "$A/cuda/$name" ;;
    esac
  done < $A/list
}
run_all new-verify
run_all old-verify
run_all new-cpu
for f in "$OUT"/logs/*verify; do
  echo "=== $f"
  grep -E "verify |error" "$f" | cut -c1-240
done > "$OUT/verify-lines.txt"

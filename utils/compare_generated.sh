#!/bin/bash
# Generated-source regression oracle for printer/lowering refactors.
#
# usage: utils/compare_generated.sh OLD_TLC_BUILD NEW_TLC_BUILD OUTDIR FILE...
#
# For every FILE and target cuda:sm_80, cuda:sm_90a, hip:gfx942, runs
# `tlc-build --target=T --emit=cuda|hip FILE` in FILE's folder with both
# binaries and compares stdout, stderr and exit status byte for byte.
# Writes OUTDIR/{old,new}/<n>.<target>.{out,err,rc} and prints one summary
# line (runs, identical, differing, exit-0 runs, runs whose output exchanges
# fragments) plus the differing runs. JOBS (default 2) runs in parallel.
set -u
OLD=$1 NEW=$2 OUT=$3
shift 3
mkdir -p "$OUT/old" "$OUT/new"
printf '%s\n' "$@" >"$OUT/files.txt"
one() {
  n=$1 f=$2
  for t in cuda:sm_80 cuda:sm_90a hip:gfx942; do
    e=cuda
    [[ $t == hip:* ]] && e=hip
    tag=${t//:/_}
    for side in old new; do
      bin=$OLD
      [[ $side == new ]] && bin=$NEW
      (cd "$(dirname "$f")" && timeout 300 nice "$bin" --target=$t --emit=$e \
        "$(basename "$f")" >"$OUT/$side/$n.$tag.out" \
        2>"$OUT/$side/$n.$tag.err"
      echo $? >"$OUT/$side/$n.$tag.rc")
    done
  done
}
export -f one
export OLD NEW OUT
nl -ba -w1 -s' ' "$OUT/files.txt" | xargs -P "${JOBS:-2}" -L1 bash -c 'one "$0" "$1"'
runs=0 same=0 ok=0 exch=0
diffs=()
for rc in "$OUT"/old/*.rc; do
  base=$(basename "$rc" .rc)
  runs=$((runs + 1))
  if cmp -s "$OUT/old/$base.out" "$OUT/new/$base.out" &&
    cmp -s "$OUT/old/$base.err" "$OUT/new/$base.err" &&
    cmp -s "$OUT/old/$base.rc" "$OUT/new/$base.rc"; then
    same=$((same + 1))
  else
    diffs+=("$base $(sed -n "${base%%.*}p" "$OUT/files.txt")")
  fi
  [[ $(cat "$rc") == 0 ]] && ok=$((ok + 1))
  grep -q 'exchange' "$OUT/old/$base.out" && exch=$((exch + 1))
done
echo "runs=$runs identical=$same differing=$((runs - same)) exit0=$ok exchanging=$exch"
printf '%s\n' "${diffs[@]+"${diffs[@]}"}"

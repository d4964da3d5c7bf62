#!/bin/bash
# The CPU reference target on a many-core host (the H200 host: 16 cores),
# the previous tlc and this one side by side. Builds every case of
# cases.txt with both tlc-builds (all cores at once), then times one
# `tlc-run --device cpu --threads N DIR` per (tag, case) in the order of
# cases.txt until the deadline: seeded random inputs and one run, which is
# what `tlc-run --verify --reference DIR` spends on the reference. See
# docs/perf/cpu-target-h200.md.
#
# Usage: [THREADS=N] [DEADLINE=SECONDS] bash run_h200.sh STAGE OUT
#   STAGE holds new/tlc-build, old/tlc-build, tlc-run and corpus/ (public
#   programs named in cases.txt, not part of the repository); CASES=FILE
#   replaces cases.txt; ROOT=DIR the repository (examples/).
# cases.txt lines: "TAGS NAME CAP FILE [-D...]": TAGS new, old or new,old;
# CAP the seconds a run may take; FILE under the repository or STAGE.
S=$(cd "$1" && pwd)
CASES=${CASES:-$(cd "$(dirname "$0")" && pwd)/cases.txt}
OUT=${2:-out}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${ROOT:-$(cd "$HERE/../../.." && pwd)}
mkdir -p "$OUT" /tmp/cpu-art
T=${THREADS:-$(nproc)}
echo "# $(nproc) cores:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2);" \
  "avx512f: $(grep -m1 -c avx512f /proc/cpuinfo), avx2: $(grep -m1 -c avx2 /proc/cpuinfo)"
build() { # tag name file defs...
  tag=$1 name=$2 file=$3
  shift 3
  [ -f "$file" ] || file=$S/$file
  TLC_CACHE_DIR=/tmp/cpu-cache-$tag timeout 300 "$S/$tag/tlc-build" \
    --target=cpu "$@" -o "/tmp/cpu-art/$tag/$name" "$file" \
    > "$OUT/$tag-$name.build.log" 2>&1 || echo "$tag $name: build failed"
}
export -f build
export S OUT
SECONDS=0
cd "$ROOT"
grep -v '^#' "$CASES" | while read -r tags name cap file defs; do
  [ -z "$tags" ] && continue
  for tag in ${tags//,/ }; do echo "$tag $name $file${defs:+ $defs}"; done
done | xargs -P "$(nproc)" -L 1 bash -c 'build "$@"' _
echo "# built in ${SECONDS}s"
END=$((SECONDS + ${DEADLINE:-150}))
printf '%-4s %-58s %7s %8s %s\n' tag program threads wall_s result
grep -v '^#' "$CASES" | while read -r tags name cap file defs; do
  [ -z "$tags" ] && continue
  for tag in ${tags//,/ }; do
    left=$((END - SECONDS))
    if [ "$left" -le 3 ]; then
      printf '%-4s %-58s %7s %8s %s\n' "$tag" "$name" "$T" - "not run (deadline)"
      continue
    fi
    c=$cap
    [ "$c" -gt "$left" ] && c=$left
    t0=$(date +%s.%N)
    timeout "$c" "$S/tlc-run" --device cpu --threads "$T" \
      "/tmp/cpu-art/$tag/$name" < /dev/null > "$OUT/$tag-$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    case $rc in
      0) res=ok ;;
      124) res="over ${c} s (stopped)" ;;
      *) res="rc=$rc: $(grep -m1 -i error "$OUT/$tag-$name.log" | cut -c1-100)" ;;
    esac
    printf '%-4s %-58s %7s %8.1f %s\n' "$tag" "$name" "$T" \
      "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$res"
  done
done

#!/bin/bash
# Build-refusal hunt (issue 13): every .py file under the given folders that
# passes `tlc-build --check` is built for cuda:sm_90a and cpu with
# --emit=cuda|cpp (generation only, no host or device compile; 60 s each,
# niced). Writes OUT/check.txt (OK|NO FILE), OUT/build.txt (RC TARGET FILE)
# and OUT/errors.txt (the first error lines of each refusal), then prints
# the refusals grouped by message with numbers and names masked.
# usage: utils/build_refusals.sh TLC_BUILD OUT DIR...
set -u
TLC=$1 OUT=$2
shift 2
mkdir -p "$OUT"
: > "$OUT/check.txt"; : > "$OUT/build.txt"; : > "$OUT/errors.txt"
for f in $(find "$@" -name '*.py' | sort); do
  d=$(dirname "$f")
  if ! (cd "$d" && timeout 60 nice "$TLC" --check "$f" > /dev/null 2>&1); then
    echo "NO $f" >> "$OUT/check.txt"
    continue
  fi
  echo "OK $f" >> "$OUT/check.txt"
  for t in cuda:sm_90a cpu; do
    em=cuda
    [ "$t" = cpu ] && em=cpp
    msg=$(cd "$d" && timeout 60 nice "$TLC" --emit=$em --target=$t \
      --no-source-lines "$f" 2>&1 > /dev/null)
    rc=$?
    echo "$rc $t $f" >> "$OUT/build.txt"
    [ $rc != 0 ] && echo "$msg" | grep -E 'error' | head -3 |
      sed "s|^|  $t $f :: |" >> "$OUT/errors.txt"
  done
done
echo "checked: $(grep -c '^OK' "$OUT/check.txt") of $(wc -l < "$OUT/check.txt")"
for t in cuda:sm_90a cpu; do
  echo "$t builds: $(grep -c "^0 $t " "$OUT/build.txt")"
done
sed -E 's/^  (\S+) \S+ :: [^ ]* error: /\1|/; s/'"'"'[^'"'"']*'"'"'/X/g; s/[0-9]+/N/g' \
  "$OUT/errors.txt" | sort | uniq -c | sort -rn

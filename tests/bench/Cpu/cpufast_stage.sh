#!/bin/bash
# Stages the H200 run of cpufast_h200.sh into build-h200-cpufast/ of this
# worktree (ignored by git): bins.tar.xz holding new/ = this worktree's
# build (tlc-build, tlc-run, stripped), old/ = OLD_BIN's (default
# /work/main/build/bin) and lib/libtlc_cuda.so; corpus/ = CORPUS (default /work/corpus: public
# programs, never committed), go.sh, commit.
# Usage: bash tests/bench/Cpu/cpufast_stage.sh
set -eu
R=$(cd "$(dirname "$0")/../../.." && pwd)
S=$R/build-h200-cpufast
OLD_BIN=${OLD_BIN:-/work/main/build/bin}
CORPUS=${CORPUS:-/work/corpus}
rm -rf "$S"
mkdir -p "$S/new" "$S/old" "$S/lib" "$S/corpus"
for t in tlc-build tlc-run; do
  strip -o "$S/new/$t" "$R/build/bin/$t"
  strip -o "$S/old/$t" "$OLD_BIN/$t"
done
cp "$R/build/lib/libtlc_cuda.so" "$S/lib/"
cp "$CORPUS"/*.py "$S/corpus/"
# The binaries packed (xz): the stage must stay under the device call's
# 64 MiB of carried files; go.sh unpacks them.
tar -C "$S" -cJf "$S/bins.tar.xz" new old lib
rm -rf "$S/new" "$S/old" "$S/lib"
cp "$R/tests/bench/Cpu/cpufast_h200.sh" "$S/go.sh"
{
  echo "new: cpufast $(git -C "$R" rev-parse --short HEAD)$(git -C "$R" diff --quiet HEAD || echo '+dirty')"
  echo "old: $OLD_BIN ($(git -C "$OLD_BIN/../.." rev-parse --short HEAD 2>/dev/null))"
} | tr '\n' ';' > "$S/commit"
du -sh "$S"

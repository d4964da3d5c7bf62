#!/bin/bash
# Stages lit tests whose NumPy checkers (tests/lit/Target/Inputs/*_check.py)
# run an artifact with tlc-run, for the H200: each test built here for
# cuda:sm_90a with nvcc, its checker, tlc-run (stripped) and run.sh, which
# runs every checker with --device=cuda and prints its lines (each ends in
# "ok" or says WRONG). Usage:
#   bash tests/bench/CUDA/checkers_stage.sh DIR TEST:CHECKER ...
# e.g. Target/reducer.py:reducer_check.py (paths under tests/lit). On the
# device, from the repository root with DIR carried: bash DIR/run.sh
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
D=$1; shift
rm -rf "$D" && mkdir -p "$D/bin" "$D/art" "$D/checkers"
strip -o "$D/bin/tlc-run" "$R/build/bin/tlc-run"
echo 'cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH' > "$D/run.sh"
for spec in "$@"; do
  t=${spec%%:*} c=${spec##*:} n=$(basename "${spec%%:*}" .py)
  "$R/build/bin/tlc-build" --target=cuda:sm_90a -o "$D/art/$n" "$R/tests/lit/$t" > /dev/null
  cp "$R/tests/lit/Target/Inputs/$c" "$D/checkers/"
  echo "echo \"== $t\"; python3 checkers/$c bin/tlc-run art/$n /tmp/chk-$n --device=cuda" >> "$D/run.sh"
done
du -sh "$D"

#!/bin/bash
# Kernel CPU time of two tlc-builds' CPU-target artifacts of the same
# programs, one host thread, with the outputs compared bit for bit
# (kernel_cpu_time.py --same-as): what a change to the generated code or
# tlc_device/cpu.h gains, and that it changes no value. Prints one line per
# program and build: CPU milliseconds (min of RUNS), and for the new build
# whether every tensor is bit-identical to the old build's.
#
# Usage: OLD=DIR_WITH_OLD_TLC_BUILD [NEW=build/bin] [RUNS=3] [OUT=dir] \
#          bash tests/bench/Cpu/kernel_compare.sh [FILE.py [-D...]]...
#   Without arguments: examples/ programs at sizes one core runs in seconds.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
NEW=${NEW:-$ROOT/build/bin}
OLD=${OLD:?set OLD to the directory of the previous tlc-build}
OUT=${OUT:-/tmp/tlc-kernel-compare}
RUNS=${RUNS:-3}
PY=/usr/bin/python3
mkdir -p "$OUT"
CASES=(
  "gemm_1024|examples/gemm.py -DM=1024 -DN=1024 -DK=1024"
  "gemm_splitk|examples/gemm_splitk.py"
  "flash_attention_fwd_b1h4s1024|examples/flash_attention_fwd.py -Dbatch=1 -Dheads=4 -Dseq_len=1024"
  "flash_attention_causal|examples/flash_attention_causal.py"
  "softmax|examples/softmax.py"
  "rms_norm|examples/rms_norm.py"
  "layer_norm|examples/layer_norm.py"
  "dequant_gemm|examples/dequant_gemm.py"
  "elementwise_add|examples/elementwise_add.py"
)
if [ $# -gt 0 ]; then
  CASES=()
  for a in "$@"; do CASES+=("$(basename "${a%% *}" .py)|$a"); done
fi
for c in "${CASES[@]}"; do
  name=${c%%|*}
  args=${c#*|}
  file=${args%% *}
  defs=${args#"$file"}
  [ -f "$file" ] || file=$ROOT/$file
  for tag in old new; do
    bin=$OLD
    [ $tag = new ] && bin=$NEW
    rm -rf "$OUT/$tag/$name"
    # shellcheck disable=SC2086
    TLC_CACHE_DIR=$OUT/cache-$tag "$bin/tlc-build" --target=cpu $defs \
      -o "$OUT/$tag/$name" "$file" > "$OUT/$name.$tag.build.log" 2>&1 ||
      echo "$name: $tag build failed (see $OUT/$name.$tag.build.log)"
  done
  $PY "$ROOT/tests/bench/Cpu/kernel_cpu_time.py" --runs "$RUNS" "$OUT/old/$name"
  $PY "$ROOT/tests/bench/Cpu/kernel_cpu_time.py" --runs "$RUNS" \
    --same-as "$OUT/old/$name" "$OUT/new/$name"
done

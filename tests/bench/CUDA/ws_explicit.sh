#!/bin/bash
# The warp-specialised programs of tests/lit/Target/CUDA/ws-*.py on the
# H200 (docs/perf/ws-explicit.md).
#   ws_explicit.sh build BUILD_BIN DIR   here: builds each program for
#       cuda:sm_90a at ragged sizes (and the CPU target where it can run it)
#       into DIR with tlc-run and the NumPy oracles (tests/sim/
#       warp_specialized.py);
#   ws_explicit.sh run DIR               on the GPU machine: tlc-run
#       --device cuda, verified against the CPU target where there is one
#       and against NumPy always, then compute-sanitizer memcheck, racecheck
#       and synccheck on each, and the SASS's HGMMA / setmaxnreg counts.
#       Logs go to $OUT.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
case "${1:-}" in
build)
  bin=${2:?build/bin}; dir=${3:?output dir}
  rm -rf "$dir"; mkdir -p "$dir/bin"
  cp "$bin/tlc-run" "$dir/bin/"
  cp "$root/tests/sim/warp_specialized.py" "$dir/"
  lit=$root/tests/lit/Target/CUDA
  # name | file | -D bindings | CPU reference
  progs=(
    "ws_gemm|ws-gemm.py|-DM=1000 -DN=520 -DK=200|"
    "ws_gemm_legacy|ws-gemm-legacy.py|-DM=1000 -DN=520 -DK=200|"
    "ws_reduce|ws-reduce.py|-DM=1000 -DN=3000|"
    "ws_range|ws-range.py|-DM=1000 -DN=3000|cpu"
  )
  for p in "${progs[@]}"; do
    IFS='|' read -r name file defs cpu <<< "$p"
    "$bin/tlc-build" "$lit/$file" --target=cuda:sm_90a -o "$dir/$name/cuda" $defs || exit 1
    rm -rf "$dir/$name/cuda/tlc_device"
    echo "$file" > "$dir/$name/program"
    if [ -n "$cpu" ]; then
      "$bin/tlc-build" "$lit/$file" --target=cpu -o "$dir/$name/cpu" $defs || exit 1
    fi
  done
  ;;
run)
  dir=${2:?dir}; O=${OUT:-/tmp/out}; mkdir -p "$O"
  log=$O/ws-explicit-h200.log
  export TLC_CACHE_DIR=/tmp/tlc-cache
  nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$log"
  for d in "$dir"/*/; do
    n=$(basename "$d"); [ -f "$d/program" ] || continue
    echo "=== $n ($(cat "$d/program"))" >> "$log"
    ref=(); [ -d "$d/cpu" ] && ref=(--verify --reference "$d/cpu")
    "$dir/bin/tlc-run" "$d/cuda" --device cuda --seed 7 --save "/tmp/$n-run" "${ref[@]}" >> "$log" 2>&1
    echo "tlc-run rc=$?" >> "$log"
    python3 "$dir/warp_specialized.py" --check "$(cat "$d/program")" "/tmp/$n-run" >> "$log" 2>&1
    echo "numpy rc=$?" >> "$log"
    for tool in memcheck racecheck synccheck; do
      echo "--- compute-sanitizer --tool $tool" >> "$log"
      compute-sanitizer --tool $tool --error-exitcode 9 "$dir/bin/tlc-run" "$d/cuda" --device cuda --seed 7 2>&1 | tail -3 >> "$log"
      echo "rc=${PIPESTATUS[0]}" >> "$log"
    done
    c=$(ls "$d"/cuda/*.cubin "$d"/cuda/*.fatbin 2>/dev/null | head -1)
    echo "SASS: HGMMA $(cuobjdump -sass "$c" | grep -c HGMMA) HMMA $(cuobjdump -sass "$c" | grep -c HMMA) USETMAXREG $(cuobjdump -sass "$c" | grep -c USETMAXREG) SYNCS $(cuobjdump -sass "$c" | grep -c SYNCS)" >> "$log"
  done
  ;;
*) echo "usage: $0 build BUILD_BIN DIR | run DIR" >&2; exit 2 ;;
esac

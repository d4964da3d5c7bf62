#!/bin/bash
# On the GPU machine, from the repository root: runs what
# fa_pingpong_build.sh built (S, default build-h200-fa-pingpong). Logs go
# to $OUT:
#   fa-pp-verify.log     tlc-run --verify against the CPU target
#   fa-pp-sanitizer.log  compute-sanitizer memcheck and racecheck, small FA
#   fa-pp-sass.log       HGMMA / USETMAXREG / BAR counts per cubin
#   fa-pp-bench.log      fa_ws_bench.py: tlc next to SDPA cuDNN and flash
S=${1:-build-h200-fa-pingpong}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/fa-pp-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/fa-pp-verify.log"
  timeout 60 "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/fa-pp-verify.log" 2>&1
  echo "rc=$?" >> "$O/fa-pp-verify.log"
done
echo "FA PASS $(grep -c ': PASS' "$O/fa-pp-verify.log") of $(ls -d "$S"/verify/*/ | wc -l)"
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin 2>/dev/null | head -1)
  s=$(cuobjdump -sass "$c")
  echo "$(basename "$d"): HGMMA $(grep -c HGMMA <<< "$s") USETMAXREG $(grep -c USETMAXREG <<< "$s") BAR.SYNC $(grep -c 'BAR.SYNC' <<< "$s") BAR.ARV $(grep -c 'BAR.ARV' <<< "$s") STL $(grep -c 'STL' <<< "$s")" >> "$O/fa-pp-sass.log"
done
PYTHONUNBUFFERED=1 python3 "$S/fa_ws_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/fa-pp-bench.log"
for n in fa_small_sanitizer fac_small_sanitizer; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/fa-pp-sanitizer.log"
    timeout 60 compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/fa-pp-sanitizer.log"
  done
done
cat "$O/fa-pp-sanitizer.log"

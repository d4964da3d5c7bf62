#!/bin/bash
# On the GPU machine, from the repository root: runs what fa_build.sh built
# (S; its variant file says which). Logs go to $OUT, named after the
# variant (P = fa-ws, fa-pp or fa-ov):
#   P-verify.log     tlc-run --verify against the CPU target, FA instances
#   P-sanitizer.log  compute-sanitizer memcheck and racecheck, small FA
#   P-sass.log       HGMMA / USETMAXREG / SYNCS / BAR.SYNC / BAR.ARV / STL
#                    counts per benchmark cubin
#   P-bench.log      fa_ws_bench.py: tlc next to SDPA cuDNN and flash, one
#                    process
# ws also: gemm-verify.log and gemm-bench.log (ws_gemm_bench.py next to
# torch.matmul). overlap also: P-race.log, racecheck RACE_REPEATS times
# (default 6) on the ping-pong kernel of the new and the old build.
# Usage: bash fa_run.sh S
S=${1:?the directory fa_build.sh wrote}
variant=$(cat "$S/variant")
case $variant in ws) P=fa-ws;; pingpong) P=fa-pp;; overlap) P=fa-ov;; faperf) P=fa-fp;; esac
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/$P-verify.log"
verify() { # LOG DIRS...
  local log=$1; shift
  for d in "$@"; do
    echo "=== $(basename "$d")" >> "$log"
    timeout 60 "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$log" 2>&1
    echo "rc=$?" >> "$log"
  done
}
verify "$O/$P-verify.log" "$S"/verify/*/
echo "FA PASS $(grep -c ': PASS' "$O/$P-verify.log") of $(ls -d "$S"/verify/*/ | wc -l)"
if [ -d "$S/gemm" ]; then
  verify "$O/gemm-verify.log" "$S"/gemm/verify/*/
  echo "GEMM PASS $(grep -c ': PASS' "$O/gemm-verify.log")"
fi
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin 2>/dev/null | head -1)
  s=$(cuobjdump -sass "$c")
  echo "$(basename "$d"): HGMMA $(grep -c HGMMA <<< "$s") USETMAXREG $(grep -c USETMAXREG <<< "$s") SYNCS $(grep -c SYNCS <<< "$s") BAR.SYNC $(grep -c 'BAR.SYNC' <<< "$s") BAR.ARV $(grep -c 'BAR.ARV' <<< "$s") STL $(grep -c 'STL' <<< "$s")" >> "$O/$P-sass.log"
done
PYTHONUNBUFFERED=1 python3 "$S/fa_ws_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/$P-bench.log"
[ -d "$S/gemm" ] && PYTHONUNBUFFERED=1 python3 "$S/gemm/ws_gemm_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/gemm/bench/*/ 2>&1 | tee "$O/gemm-bench.log"
for n in fa_small_sanitizer fac_small_sanitizer; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/$P-sanitizer.log"
    timeout 60 compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/$P-sanitizer.log"
  done
done
cat "$O/$P-sanitizer.log"
for which in new old; do
  [ -d "$S/race/$which" ] || continue
  for i in $(seq "${RACE_REPEATS:-6}"); do
    echo "=== racecheck $which $i" >> "$O/$P-race.log"
    timeout 60 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 3 \
      "$S/bin/tlc-run" "$S/race/$which/cuda" --device cuda --verify --reference "$S/race/cpu" 2>&1 |
      grep -E "SUMMARY|verify|Error|Thread" | head -8 >> "$O/$P-race.log"
  done
done
[ -f "$O/$P-race.log" ] && grep -E "===|SUMMARY" "$O/$P-race.log"
true

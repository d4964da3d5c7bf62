#!/bin/bash
# On the GPU machine, from the repository root: runs what fa_ws_build.sh
# built (S, default build-h200-hopper-fa). Logs go to $OUT:
#   fa-ws-verify.log     tlc-run --verify against the CPU target, FA instances
#   gemm-verify.log      the same for the GEMM verification instances
#   fa-ws-sanitizer.log  compute-sanitizer memcheck and racecheck, small FA
#   fa-ws-sass.log       HGMMA / USETMAXREG / SYNCS / BAR counts per FA cubin
#   fa-ws-bench.log      fa_ws_bench.py: tlc (WS and single-role) next to SDPA
#                        cuDNN and flash, one process
#   gemm-bench.log       ws_gemm_bench.py: tlc GEMMs next to torch.matmul
S=${1:-build-h200-hopper-fa}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/fa-ws-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/fa-ws-verify.log"
  timeout 60 "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/fa-ws-verify.log" 2>&1
  echo "rc=$?" >> "$O/fa-ws-verify.log"
done
for d in "$S"/gemm/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/gemm-verify.log"
  timeout 60 "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/gemm-verify.log" 2>&1
  echo "rc=$?" >> "$O/gemm-verify.log"
done
echo "FA PASS $(grep -c ': PASS' "$O/fa-ws-verify.log") GEMM PASS $(grep -c ': PASS' "$O/gemm-verify.log")"
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin 2>/dev/null | head -1)
  s=$(cuobjdump -sass "$c")
  echo "$(basename "$d"): HGMMA $(grep -c HGMMA <<< "$s") HMMA $(grep -c 'HMMA' <<< "$s") USETMAXREG $(grep -c USETMAXREG <<< "$s") SYNCS $(grep -c SYNCS <<< "$s") BAR $(grep -cE '\bBAR\b' <<< "$s")" >> "$O/fa-ws-sass.log"
done
PYTHONUNBUFFERED=1 python3 "$S/fa_ws_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/fa-ws-bench.log"
PYTHONUNBUFFERED=1 python3 "$S/gemm/ws_gemm_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/gemm/bench/*/ 2>&1 | tee "$O/gemm-bench.log"
for n in fa_small_sanitizer fac_small_sanitizer; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/fa-ws-sanitizer.log"
    timeout 60 compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/fa-ws-sanitizer.log"
  done
done
cat "$O/fa-ws-sanitizer.log"

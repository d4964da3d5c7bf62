#!/bin/bash
# On the GPU machine, from the repository root: runs what ws_build.sh built
# (S, default build-h200-hopper-ws). Logs go to $OUT:
#   ws-verify.log     tlc-run --verify against the CPU target, every kernel
#   ws-bench.log      ws_gemm_bench.py: tlc (WS and single-role) next to
#                     torch.matmul, L2 flushed before every run, one process
#   ws-sass.log       HGMMA / USETMAXREG / SYNCS / BAR counts per cubin
#   ws-sanitizer.log  compute-sanitizer memcheck and racecheck on two
# GEMM_VARIANT=tma_store builds (the variant file says so) log as
# gemm-st-*.log instead of ws-*.log, with san_gemm_example sanitised.
S=${1:-build-h200-hopper-ws}
O=${OUT:-/tmp/out}; mkdir -p "$O"
P=ws; SAN=${SANITIZE:-san_tn_f16_t256 san_gemm_example}
if [ "$(cat "$S/variant" 2>/dev/null)" = tma_store ]; then P=gemm-st; SAN=${SANITIZE:-san_gemm_example}; fi
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/$P-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/$P-verify.log"
  "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" --seed 7 >> "$O/$P-verify.log" 2>&1
  echo "rc=$?" >> "$O/$P-verify.log"
done
grep -c "PASS" "$O/$P-verify.log"
PYTHONUNBUFFERED=1 python3 "$S/ws_gemm_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "$S"/bench/*/ 2>&1 | tee "$O/$P-bench.log"
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin 2>/dev/null | head -1)
  s=$(cuobjdump -sass "$c")
  echo "$(basename "$d"): HGMMA $(grep -c HGMMA <<< "$s") USETMAXREG $(grep -c USETMAXREG <<< "$s") SYNCS $(grep -c SYNCS <<< "$s") BAR $(grep -cE '\bBAR\b' <<< "$s")" >> "$O/$P-sass.log"
done
for n in $SAN; do
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/$P-sanitizer.log"
    timeout 120 compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/$P-sanitizer.log"
  done
done
cat "$O/$P-sanitizer.log"

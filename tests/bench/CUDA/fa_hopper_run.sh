#!/bin/bash
# On the GPU machine, from the repository root: runs what fa_hopper_build.sh
# built (S, default build/h200-fa). Logs go to $OUT:
#   fa-verify.log     tlc-run --verify against the CPU target, every instance
#   fa-sanitizer.log  compute-sanitizer memcheck and racecheck, small ones
#   fa-sass.log       HGMMA / HMMA counts of each benchmark cubin
#   fa-tlc.log        tlc-run --bench medians (device events, 30 runs)
#   fa-sdpa.log       torch SDPA, cuDNN and flash backends, same shapes,
#                     medians of 30 the same way, in the same call
S=${1:-build/h200-fa}
O=${OUT:-/tmp/out}; mkdir -p "$O"
export TLC_CACHE_DIR=/tmp/tlc-cache
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee "$O/fa-verify.log"
for d in "$S"/verify/*/; do
  n=$(basename "$d")
  echo "=== $n" >> "$O/fa-verify.log"
  "$S/bin/tlc-run" "$d/cuda" --device cuda --verify --reference "$d/cpu" >> "$O/fa-verify.log" 2>&1
  echo "rc=$?" >> "$O/fa-verify.log"
done
for n in fa_small_sanitizer fac_small_sanitizer; do
  [ -d "$S/verify/$n" ] || continue
  for tool in memcheck racecheck; do
    echo "=== compute-sanitizer --tool $tool $n" >> "$O/fa-sanitizer.log"
    compute-sanitizer --tool $tool "$S/bin/tlc-run" "$S/verify/$n/cuda" --device cuda --verify --reference "$S/verify/$n/cpu" 2>&1 | tail -4 >> "$O/fa-sanitizer.log"
  done
done
for d in "$S"/bench/*/; do
  c=$(ls "$d"/*.cubin "$d"/*.fatbin 2>/dev/null | head -1)
  echo "$(basename "$d"): HGMMA $(cuobjdump -sass "$c" | grep -c HGMMA) HMMA $(cuobjdump -sass "$c" | grep -c 'HMMA')" >> "$O/fa-sass.log"
done
for d in "$S"/bench/*/; do
  t=$("$S/bin/tlc-run" "$d" --device cuda --bench --bench-runs 30 2>&1 | grep -iE "median" | tail -1)
  echo "$(basename "$d") | $t"
done > "$O/fa-tlc.log" 2>&1
python3 - > "$O/fa-sdpa.log" 2>&1 <<'PY'
import statistics, torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
B, H, S = 8, 32, 4096
print(torch.__version__, torch.cuda.get_device_name())
for D in (64, 128):
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
    for causal in (False, True):
        for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
            with sdpa_kernel([backend]):
                f = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                for _ in range(5):
                    f()
                ts = []
                for _ in range(30):
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record(); f(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
            print(f"D{D} causal={causal} sdpa {backend.name} median {statistics.median(ts):.4f} ms")
PY
cat "$O/fa-tlc.log" "$O/fa-sdpa.log"

#!/bin/bash
# Attention old vs new (B8 H32 S4096, D64/D128, causal and not), tlc-run --bench medians, next to SDPA.
set -u
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
W=/tmp/u32b; rm -rf "$W"; mkdir -p "$W/bin"
for b in tlc-build-old tlc-build-new tlc-run; do xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"; done
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
t="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 -Dbatch=8 -Dheads=32 -Dseq_len=4096"
jobs=()
for f in flash_attention_fwd flash_attention_causal; do for d in 64 128; do for w in old new; do jobs+=("$W/$w/${f}_$d|$w|$S/py/$f.py|--target=cuda:sm_90a $t -Ddim=$d"); done; done; done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o w f d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$W"'/bin/tlc-build-$w" "$f" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 300 "$o.err")"' > "$O/fa.log" 2>&1
for r in 1 2; do for f in flash_attention_fwd flash_attention_causal; do for d in 64 128; do for w in old new; do
 echo "$r $w ${f}_$d $(timeout 40 "$W/bin/tlc-run" "$W/$w/${f}_$d" --device cuda --bench --bench-runs=30 2>&1 | grep -i median | tr '\n' ' ')" >> "$O/fa.log"; done; done; done; done
python3 - >> "$O/fa.log" 2>&1 <<'PY'
import torch, torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend
for d in (64,128):
  q,k,v=[torch.randn(8,32,4096,d,device='cuda',dtype=torch.float16) for _ in range(3)]
  for causal in (False,True):
    for be in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
      with sdpa_kernel(be):
        for _ in range(3): F.scaled_dot_product_attention(q,k,v,is_causal=causal)
        s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True); ts=[]
        for _ in range(20):
          s.record(); F.scaled_dot_product_attention(q,k,v,is_causal=causal); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
        ts.sort(); print(f"sdpa {be.name} d{d} causal={causal} median {ts[len(ts)//2]:.4f} ms")
PY
echo "done ${SECONDS}s" >> "$O/fa.log"

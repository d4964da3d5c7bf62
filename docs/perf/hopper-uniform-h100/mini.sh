#!/bin/bash
# Short H200 check of perf32's warp-uniform warpgroup index: old vs new
# ping-pong / wide GEMMs verified against the CPU target at ragged sizes,
# 4096^3 and 8192^3 f16 timed (tlc-run --bench median) next to torch.matmul.
set -u
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
W=/tmp/u32; rm -rf "$W"; mkdir -p "$W/bin"
for b in tlc-build-old tlc-build-new tlc-run; do xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"; done
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
hg=$S/py/hopper_gemm.py
nvidia-smi --query-gpu=name,driver_version --format=csv > "$O/env.log" 2>&1
k=( "v_pp_nn_f16|-DM=376 -DN=600 -DK=200 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 --pass-config=tlc.num_sms=2"
    "v_pp_tn_bf16|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=7"
    "v_wide_nn_f16|-DM=1000 -DN=1000 -DK=328 -Dnum_stages=4"
    "s_pp_4096|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
    "s_wide_4096|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
    "s_pp_8192|-DM=8192 -DN=8192 -DK=8192 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4" )
jobs=()
for v in "${k[@]}"; do IFS='|' read -r n d <<< "$v"
  for w in old new; do jobs+=("$W/$w/$n|$w|--target=cuda:sm_90a $d"); done
  [[ $n == v_* ]] && jobs+=("$W/cpu/$n|new|--target=cpu $d"); done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o w d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$W"'/bin/tlc-build-$w" '"$hg"' -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 300 "$o.err")"' > "$O/verify.log" 2>&1
echo "built ${SECONDS}s" >> "$O/verify.log"
for w in old new; do for v in "${k[@]}"; do IFS='|' read -r n d <<< "$v"; [[ $n == v_* ]] || continue
  echo "=== $w $n" >> "$O/verify.log"; timeout 60 "$W/bin/tlc-run" "$W/$w/$n" --device cuda --verify --reference "$W/cpu/$n" --seed 7 >> "$O/verify.log" 2>&1; echo rc=$? >> "$O/verify.log"; done; done
for r in 1 2; do for n in s_pp_4096 s_wide_4096 s_pp_8192; do for w in old new; do
  echo "$r $w $n $(timeout 40 "$W/bin/tlc-run" "$W/$w/$n" --device cuda --bench --bench-runs=50 2>&1 | grep -iE 'median|ms' | head -2 | tr '\n' ' ')" >> "$O/bench.log"; done; done; done
python3 - >> "$O/bench.log" 2>&1 <<'PY'
import torch
for n in (4096, 8192):
    a=torch.randn(n,n,device='cuda',dtype=torch.float16); b=torch.randn(n,n,device='cuda',dtype=torch.float16)
    for _ in range(5): a@b
    s=torch.cuda.Event(enable_timing=True); e=torch.cuda.Event(enable_timing=True); ts=[]
    for _ in range(30):
        s.record(); a@b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); print(f"cublas torch.matmul f16 {n}^3 median {ts[len(ts)//2]:.4f} ms min {ts[0]:.4f} ms  {2*n**3/ts[len(ts)//2]/1e9:.0f} TFLOP/s")
PY
echo "done ${SECONDS}s" >> "$O/bench.log"

#!/bin/bash
# The new (warp-uniform) attention kernels verified against the CPU target at ragged sizes.
set -u
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
W=/tmp/u32c; rm -rf "$W"; mkdir -p "$W/bin"
for b in tlc-build-new tlc-run; do xz -dc "$S/bin/$b.xz" > "$W/bin/$b"; chmod +x "$W/bin/$b"; done
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
t="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
k=( "fa_d64|flash_attention_fwd|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 $t"
    "fa_d128|flash_attention_fwd|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t"
    "fac_d64|flash_attention_causal|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 $t"
    "fac_d128|flash_attention_causal|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 $t"
    "fa_d64_s77|flash_attention_fwd|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 $t" )
jobs=()
for v in "${k[@]}"; do IFS='|' read -r n f d <<< "$v"; jobs+=("$W/gpu/$n|$f|--target=cuda:sm_90a $d" "$W/cpu/$n|$f|--target=cpu $d"); done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o f d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$W"'/bin/tlc-build-new" '"$S"'/py/$f.py -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 300 "$o.err")"' > "$O/verify-fa.log" 2>&1
for v in "${k[@]}"; do IFS='|' read -r n f d <<< "$v"; echo "=== $n" >> "$O/verify-fa.log"
  timeout 60 "$W/bin/tlc-run" "$W/gpu/$n" --device cuda --verify --reference "$W/cpu/$n" --seed 7 >> "$O/verify-fa.log" 2>&1; echo rc=$? >> "$O/verify-fa.log"; done
echo "done ${SECONDS}s" >> "$O/verify-fa.log"

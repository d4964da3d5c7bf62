#!/bin/bash
# Builds the sm_90a FlashAttention artifacts for one H200 run into OUT
# (default build/h200-fa; docs/perf/hopper.md, "wgmma attention"):
# verification instances of examples/flash_attention_fwd.py and
# flash_attention_causal.py at ragged sizes (seq_len 1000, 200: no multiple
# of a tile) with their CPU-target references, benchmark instances at
# B8 H32 S4096 D64/D128, tlc-run, and fa_hopper_run.sh, which runs them.
# TILINGS (default "t128 t256") picks the tilings: t128 block 128 x 64,
# 128 threads; t256 block 128 x 128, 256 threads; m64n128 block 64 x 128,
# 128 threads; m64n64 block 64 x 64, 128 threads (2 stages each).
# Usage: [TILINGS="..."] tests/bench/CUDA/fa_hopper_build.sh BUILD_BIN [OUT]
set -eu
bin=${1:?build/bin with tlc-build and tlc-run}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build/h200-fa}
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench" "$out/bin"
cp "$bin/tlc-run" "$out/bin/"
fa=$root/examples/flash_attention_fwd.py
fac=$root/examples/flash_attention_causal.py
declare -A tiling=(
  [t128]="-Dblock_M=128 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2"
  [t256]="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
  [m64n128]="-Dblock_M=64 -Dblock_N=128 -Dthreads=128 -Dnum_stages=2"
  [m64n64]="-Dblock_M=64 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2"
)
tilings=${TILINGS:-t128 t256}
small="-Dbatch=1 -Dheads=2 -Dseq_len=1000"
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
# name | file | -D bindings
verify=()
benches=()
for t in $tilings; do
  verify+=("fa_d128_$t|$fa|$small -Ddim=128 ${tiling[$t]}"
           "fac_d64_$t|$fac|$small -Ddim=64 ${tiling[$t]}")
  for d in 64 128; do
    benches+=("fa_d${d}_$t|$fa|$big -Ddim=$d ${tiling[$t]}"
              "fac_d${d}_$t|$fac|$big -Ddim=$d ${tiling[$t]}")
  done
done
if [ "$tilings" = "t128 t256" ]; then
  verify+=(
    "fa_d64_t128|$fa|$small -Ddim=64 ${tiling[t128]}"
    "fac_d128_t128|$fac|$small -Ddim=128 ${tiling[t128]}"
    "fa_small_sanitizer|$fa|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=64 ${tiling[t128]}"
    "fac_small_sanitizer|$fac|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=128 ${tiling[t256]}"
  )
fi
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  # shellcheck disable=SC2086
  "$bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs > /dev/null
  # shellcheck disable=SC2086
  "$bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
for b in "${benches[@]}"; do
  IFS='|' read -r name file defs <<< "$b"
  # shellcheck disable=SC2086
  "$bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/bench/$name" $defs > /dev/null
  rm -rf "$out/bench/$name/tlc_device"
done
cp "$root/tests/bench/CUDA/fa_hopper_run.sh" "$out/"
echo "built into $out"

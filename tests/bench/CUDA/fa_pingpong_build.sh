#!/bin/bash
# Builds one H200 call's artifacts for the ping-pong of warp-specialised
# FlashAttention's two consumer warpgroups (tile-warp-specialize's
# tile.ws_pingpong; docs/perf/hopper-fa-pingpong.md) into OUT (default
# build-h200-fa-pingpong):
#   verify/   FA instances at ragged sizes (seq_len 1000, 200, 77) with their
#             CPU-target references; every one ping-ponged
#   bench/    FA at B8 H32 S4096 D64/D128, causal and not: pp_* with
#             tlc.ws_pingpong (warp-specialised, ping-pong), nopp_* the same
#             tiling without it (the default), base_*
#             single-role (TL_DISABLE_WARP_SPECIALIZED) as last run's best
# plus tlc-run, libtlc_cuda.so, the Python launcher, fa_ws_bench.py and
# fa_pingpong_run.sh, which runs it all.
# Usage: tests/bench/CUDA/fa_pingpong_build.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-fa-pingpong}
bench=$root/tests/bench/CUDA
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench" "$out/bin"
cp "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/"
cp "$root/python/tilelang/_runtime.py" "$out/tlc_runtime.py"
fa=$root/examples/flash_attention_fwd.py
fac=$root/examples/flash_attention_causal.py
noWs=--pass-config=tl.disable_warp_specialized=True
pp=--pass-config=tlc.ws_pingpong=True
declare -A tiling=(
  [t128]="-Dblock_M=128 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2"
  [m64n128]="-Dblock_M=64 -Dblock_N=128 -Dthreads=128 -Dnum_stages=2"
  [t256]="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
  [t256s3]="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=3"
  [t256n64]="-Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"
  [t256n64s3]="-Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=3"
)
wsTilings=${FA_WS_TILINGS:-t256 t256s3 t256n64 t256n64s3}
noPpTilings=${FA_NOPP_TILINGS:-t256 t256n64}
baseTilings=${FA_BASE_TILINGS:-t128 m64n128}
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
# name | file | -D bindings
verify=(
  "fa_d64_t256|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 ${tiling[t256]}"
  "fa_d128_t256n64|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 ${tiling[t256n64]}"
  "fa_d128_t256s3|$fa|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 ${tiling[t256s3]}"
  "fac_d64_t256n64s3|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=64 ${tiling[t256n64s3]}"
  "fac_d128_t256|$fac|-Dbatch=1 -Dheads=2 -Dseq_len=1000 -Ddim=128 ${tiling[t256]}"
  "fa_d64_t256_seq77|$fa|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 ${tiling[t256]}"
  "fa_small_sanitizer|$fa|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=64 ${tiling[t256n64]}"
  "fac_small_sanitizer|$fac|-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=128 ${tiling[t256]}"
)
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs $pp > /dev/null
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  grep -q "namedBarrierSync(2 + tid / 128, 256)" "$out/verify/$name/cuda/"*.cu ||
    { echo "$name: no ping-pong" >&2; exit 1; }
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
jobs=()
for d in 64 128; do
  for f in fa fac; do
    file=$fa; [ $f = fac ] && file=$fac
    for t in $wsTilings; do jobs+=("pp_${f}_d${d}_$t|$file|$big -Ddim=$d ${tiling[$t]} $pp"); done
    for t in $noPpTilings; do jobs+=("nopp_${f}_d${d}_$t|$file|$big -Ddim=$d ${tiling[$t]}"); done
    for t in $baseTilings; do jobs+=("base_${f}_d${d}_$t|$file|$big -Ddim=$d ${tiling[$t]} $noWs"); done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '
  IFS="|" read -r name file defs <<< "{}"
  "'"$build"'/bin/tlc-build" "$file" --target=cuda:sm_90a -o "'"$out"'/bench/$name" $defs > /dev/null && rm -rf "'"$out"'/bench/$name/tlc_device"'
cp "$bench/fa_ws_bench.py" "$bench/fa_pingpong_run.sh" "$out/"
echo "built into $out"

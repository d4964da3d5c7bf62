#!/bin/bash
# Builds one H200 call's artifacts for warp-specialised FlashAttention on
# sm_90a into OUT. VARIANT picks what is measured against what:
#   ws        tile-warp-specialize over the K/V pipeline
#             (docs/perf/hopper-fa-ws.md): bench ws_* (the default sm_90a
#             build) and base_* (the same tiling single-role, under
#             TL_DISABLE_WARP_SPECIALIZED); gemm/ holds ws_build.sh's GEMMs
#             (WS_TILINGS / BASE_TILINGS / VERIFY passed through)
#   pingpong  the two consumer warpgroups' ping-pong (tlc.ws_pingpong;
#             docs/perf/hopper-fa-pingpong.md): pp_* with it, nopp_* the
#             same tiling without, base_* single-role
#   overlap   the softmax overlapping the previous iteration's P V gemm
#             (tlc.ws_overlap; docs/perf/hopper-fa-overlap.md): ov_* with
#             it, ovpp_* with it and ping-pong, pp_*, nopp_* (both with
#             tlc.ws_overlap=False, as the overlap is on by default from
#             head dimension 128), base_* as above, def_* with no pass
#             config (the default); race/ holds the ping-pong kernels that racecheck
#             repeats (old: built with $OLD_TLC_BUILD when set)
#   faperf    the per-iteration work of docs/perf/hopper.md, each behind its
#             pass config (FA_FAPERF_KINDS picks, default "def sl sd smf"):
#             def_* no pass config (the default), sl_* tlc.split_masks
#             (masks skipped where all true: the loop split into the
#             all-true iterations and the rest, the fill folded into the S
#             gemm's scale-d), sd_* tlc.split_masks=branch (no loop split: a
#             branch per iteration), smf_* tlc.split_masks=fill (branch, fill),
#             hb_* tlc.heavy_blocks_first (causal: longest query blocks
#             first), rg_* tlc.ws_fa3_regs (24 / 240 registers), fp_* sd +
#             hb + rg; verify/ and the sanitizer kernels are built as sl_*
# Layout: verify/ (FA instances at ragged sizes with their CPU-target
# references, built with the variant's switches), bench/ (B8 H32 S4096
# D64/D128, causal and not), tlc-run, libtlc_cuda.so, the Python launcher,
# fa_ws_bench.py and fa_run.sh, which runs it all.
# Tilings: FA_WS_TILINGS (the variant's kernels), FA_NOPP_TILINGS,
# FA_BASE_TILINGS (names of the table below).
# Usage: tests/bench/CUDA/fa_build.sh ws|pingpong|overlap|faperf BUILD_DIR [OUT]
set -eu
variant=${1:?ws, pingpong, overlap or faperf}
build=${2:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
bench=$root/tests/bench/CUDA
fa=$root/examples/flash_attention_fwd.py
fac=$root/examples/flash_attention_causal.py
noWs=--pass-config=tl.disable_warp_specialized=True
pp=--pass-config=tlc.ws_pingpong=True
ov=--pass-config=tlc.ws_overlap=True
noOv=--pass-config=tlc.ws_overlap=False
sm=--pass-config=tlc.split_masks=True
hb=--pass-config=tlc.heavy_blocks_first=True
rg=--pass-config=tlc.ws_fa3_regs=True
declare -A tiling=(
  [t128]="-Dblock_M=128 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2"
  [t256]="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2"
  [t256s3]="-Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=3"
  [t256n64]="-Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=2"
  [t256n64s3]="-Dblock_M=128 -Dblock_N=64 -Dthreads=256 -Dnum_stages=3"
  [m64n128]="-Dblock_M=64 -Dblock_N=128 -Dthreads=128 -Dnum_stages=2"
  [m64n64]="-Dblock_M=64 -Dblock_N=64 -Dthreads=128 -Dnum_stages=2"
)
small="-Dbatch=1 -Dheads=2 -Dseq_len=1000"
san64="-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=64"
san128="-Dbatch=1 -Dheads=1 -Dseq_len=200 -Ddim=128"
# Per variant: default OUT, the verify instances (name | file | -D
# bindings), the switches they are built with and the line that proves it,
# the benchmark kernels (prefix | tilings | switches).
case $variant in
ws)
  out=${3:-$root/build-h200-hopper-fa}
  verify=(
    "fa_d64_t128|$fa|$small -Ddim=64 ${tiling[t128]}"
    "fa_d128_t256|$fa|$small -Ddim=128 ${tiling[t256]}"
    "fa_d128_t256s3|$fa|$small -Ddim=128 ${tiling[t256s3]}"
    "fa_d64_m64n64|$fa|$small -Ddim=64 ${tiling[m64n64]}"
    "fac_d64_m64n128|$fac|$small -Ddim=64 ${tiling[m64n128]}"
    "fac_d128_t128|$fac|$small -Ddim=128 ${tiling[t128]}"
    "fac_d128_t256|$fac|$small -Ddim=128 ${tiling[t256]}"
    "fa_small_sanitizer|$fa|$san64 ${tiling[t128]}"
    "fac_small_sanitizer|$fac|$san128 ${tiling[t256]}")
  vflags=""; proof="setMaxNReg\|if (tid >= "
  kinds=("ws|${FA_WS_TILINGS:-t128 t256 t256s3 m64n128 m64n64}|"
         "base|${FA_BASE_TILINGS:-t128 t256 m64n128}|$noWs");;
pingpong|overlap|faperf)
  verify=(
    "fa_d64_t256|$fa|$small -Ddim=64 ${tiling[t256]}"
    "fa_d128_t256n64|$fa|$small -Ddim=128 ${tiling[t256n64]}"
    "fa_d128_t256s3|$fa|$small -Ddim=128 ${tiling[t256s3]}"
    "fac_d64_t256n64s3|$fac|$small -Ddim=64 ${tiling[t256n64s3]}"
    "fac_d128_t256|$fac|$small -Ddim=128 ${tiling[t256]}"
    "fa_d64_t256_seq77|$fa|-Dbatch=2 -Dheads=3 -Dseq_len=77 -Ddim=64 ${tiling[t256]}"
    "fa_small_sanitizer|$fa|$san64 ${tiling[t256n64]}"
    "fac_small_sanitizer|$fac|$san128 ${tiling[t256]}")
  nopp="nopp|${FA_NOPP_TILINGS:-t256 t256n64}|$noOv"
  base="base|${FA_BASE_TILINGS:-t128 m64n128}|$noWs"
  if [ "$variant" = faperf ]; then
    out=${3:-$root/build-h200-faperf}
    vflags="$sm"; proof="scale-d = 0 clears C"
    br=--pass-config=tlc.split_masks=branch
    t=${FA_WS_TILINGS:-t256}
    declare -A fpFlags=([def]="" [sl]="$sm" [sd]="$br" [smf]="--pass-config=tlc.split_masks=fill"
                        [hb]="$hb" [rg]="$rg" [fp]="$sm $hb $rg")
    kinds=()
    for kind in ${FA_FAPERF_KINDS:-def sl sd smf}; do kinds+=("$kind|$t|${fpFlags[$kind]}"); done
  elif [ "$variant" = pingpong ]; then
    out=${3:-$root/build-h200-fa-pingpong}
    vflags=$pp; proof="namedBarrierSync(2, 256); else tlc::cuda::namedBarrierSync(3, 256)"
    kinds=("pp|${FA_WS_TILINGS:-t256 t256s3 t256n64 t256n64s3}|$pp" "$nopp" "$base")
  else
    out=${3:-$root/build-h200-fa-overlap}
    vflags="$ov $pp"; proof="wgmmaWait<1>();  // S is complete"
    kinds=("ov|${FA_WS_TILINGS:-t256 t256n64}|$ov" "ovpp|${FA_WS_TILINGS:-t256 t256n64}|$ov $pp"
           "pp|${FA_WS_TILINGS:-t256 t256n64}|$pp $noOv" "$nopp" "$base"
           "def|${FA_WS_TILINGS:-t256 t256n64}|")
  fi;;
*) echo "unknown variant $variant (ws, pingpong, overlap, faperf)" >&2; exit 2;;
esac
# FA_SKIP_VERIFY=1 keeps OUT's verify/ and race/ (built before).
[ -z "${FA_SKIP_VERIFY:-}" ] && rm -rf "$out"
mkdir -p "$out/verify" "$out/bench" "$out/bin"
[ "$variant" = ws ] && "$bench/ws_build.sh" "$build" "$out/gemm"
cp "$build/bin/tlc-run" "$out/bin/"
strip "$out/bin/tlc-run"
cp "$build/lib/libtlc_cuda.so" "$out/"
cp "$root/python/tilelang/_runtime.py" "$out/tlc_runtime.py"
for v in "${verify[@]}"; do
  [ -n "${FA_SKIP_VERIFY:-}" ] && break
  IFS='|' read -r name file defs <<< "$v"
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs $vflags > /dev/null
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  grep -q "$proof" "$out/verify/$name/cuda/"*.cu || { echo "$name: not built as $variant" >&2; exit 1; }
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
if [ "$variant" = overlap ] && [ -z "${FA_SKIP_VERIFY:-}" ]; then
  # The ping-pong kernel racecheck reported hazards on, with this build's
  # tlc-build (new) and with OLD_TLC_BUILD (old) when given.
  d="$san64 ${tiling[t256n64]} $pp"
  for which in new old; do
    b=$build/bin/tlc-build; [ $which = old ] && b=${OLD_TLC_BUILD:-}
    [ -n "$b" ] || continue
    # shellcheck disable=SC2086
    "$b" "$fa" --target=cuda:sm_90a -o "$out/race/$which/cuda" $d > /dev/null
    rm -rf "$out/race/$which/cuda/tlc_device"
  done
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$fa" --target=cpu -o "$out/race/cpu" $san64 ${tiling[t256n64]} > /dev/null
fi
big="-Dbatch=8 -Dheads=32 -Dseq_len=4096"
jobs=()
for d in 64 128; do
  for f in fa fac; do
    file=$fa; [ $f = fac ] && file=$fac
    for k in "${kinds[@]}"; do
      IFS='|' read -r prefix tilings flags <<< "$k"
      for t in $tilings; do jobs+=("${prefix}_${f}_d${d}_$t|$file|$big -Ddim=$d ${tiling[$t]} $flags"); done
    done
  done
done
# FA_BENCH_JOBS=FILE: only write the benchmark jobs (paths relative to the
# repository root) to FILE, for building them on the GPU machine with
# fa_bench_jobs.sh (its 16 cores), and stop.
if [ -n "${FA_BENCH_JOBS:-}" ]; then
  printf '%s\n' "${jobs[@]}" | sed "s|$root/||g" > "$FA_BENCH_JOBS"
  cp "$bench/fa_ws_bench.py" "$bench/fa_run.sh" "$bench/fa_bench_jobs.sh" "$out/"
  echo "$variant" > "$out/variant"
  echo "jobs in $FA_BENCH_JOBS"; exit 0
fi
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '
  IFS="|" read -r name file defs <<< "{}"
  "'"$build"'/bin/tlc-build" "$file" --target=cuda:sm_90a -o "'"$out"'/bench/$name" $defs > /dev/null && rm -rf "'"$out"'/bench/$name/tlc_device"'
cp "$bench/fa_ws_bench.py" "$bench/fa_run.sh" "$out/"
[ "$variant" = faperf ] && cp "$bench/fa_faperf_bench.sh" "$out/"
echo "$variant" > "$out/variant"
echo "built into $out"

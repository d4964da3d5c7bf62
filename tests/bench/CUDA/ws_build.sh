#!/bin/bash
# Builds the warp-specialised GEMM artifacts (tile-warp-specialize) for one
# H200 call into OUT (default build-h200-hopper-ws): verification kernels
# at ragged sizes with their CPU references, benchmark kernels (WS and the
# single-role TMA pipeline of the same tiles under
# TL_DISABLE_WARP_SPECIALIZED, as the control), tlc-run, libtlc_cuda.so,
# the Python launcher and ws_run.sh (see docs/perf/hopper-ws/README.md).
# GEMM_VARIANT=tma_store instead builds the TMA-store epilogue's run
# (tile-plan-tma's tile.tma_store; docs/perf/hopper-fa-pingpong.md) into OUT
# (default build-h200-tma-store): four verification kernels built with
# tlc.tma_store (san_gemm_example and a single-role one among them; the
# boxes are clipped at the ragged edges) and st_* / nost_* benchmarks (the
# 128 x 256 tiling with and without it, GEMM_DTYPES, default f16).
# Usage: [GEMM_VARIANT=tma_store] tests/bench/CUDA/ws_build.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build, bin/tlc-run, lib/libtlc_cuda.so}
root=$(cd "$(dirname "$0")/../../.." && pwd)
variant=${GEMM_VARIANT:-ws}
st=""; proof="setMaxNReg\|if (tid >= "; defaultOut=build-h200-hopper-ws
case $variant in
ws) ;;
tma_store) st=--pass-config=tlc.tma_store=True; proof="tmaStore<2>"
  defaultOut=build-h200-tma-store
  VERIFY=${VERIFY:-^(nn_f16_t256_s3|tn_bf16_t256_s2|nn_f16_t256_single_role|san_gemm_example)\$};;
*) echo "unknown GEMM_VARIANT $variant (ws, tma_store)" >&2; exit 2;;
esac
out=${2:-$root/$defaultOut}
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench" "$out/bin"
cp "$build/bin/tlc-run" "$out/bin/"
cp "$build/lib/libtlc_cuda.so" "$out/"
cp "$root/python/tilelang/_runtime.py" "$out/tlc_runtime.py"
bench=$root/tests/bench/CUDA
hg=$bench/hopper_gemm.py
noWs=--pass-config=tl.disable_warp_specialized=True
# name | file | -D bindings (ragged: no dimension a multiple of its tile;
# rows multiples of 16 bytes so TMA loads them).
verify=(
  "nn_f16_t256_s3|$hg|-DM=1000 -DN=520 -DK=200"
  "tn_f16_t256_s3|$hg|-DM=1000 -DN=520 -DK=200 -Dtrans_B=True"
  "nn_bf16_t256_s4|$hg|-DM=1000 -DN=520 -DK=456 -Ddtype=T.bfloat16 -Dnum_stages=4"
  "tn_bf16_t256_s2|$hg|-DM=1000 -DN=520 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=2"
  "nn_f16_t128_s4|$hg|-DM=333 -DN=248 -DK=520 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "tn_bf16_t128_s2|$hg|-DM=333 -DN=248 -DK=520 -Dthreads=128 -Dblock_N=128 -Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=2"
  "nn_f16_m256_t256|$hg|-DM=1000 -DN=520 -DK=200 -Dblock_M=256 -Dblock_N=128"
  "nn_f16_t256_k72|$hg|-DM=1000 -DN=520 -DK=72"
  "gemm_example_f16|$root/examples/gemm.py|-Dm=1000 -Dn=520 -Dk=200"
  "gemm_example_bf16|$root/examples/gemm.py|-Dm=1000 -Dn=520 -Dk=200 -Ddtype=T.bfloat16"
  "san_tn_f16_t256|$hg|-DM=333 -DN=248 -DK=200 -Dtrans_B=True"
  "san_gemm_example|$root/examples/gemm.py|-Dm=333 -Dn=248 -Dk=200"
  "nn_f16_t128_s3_2cta|$hg|-DM=333 -DN=248 -DK=520 -Dthreads=128 -Dblock_N=128"
  "tn_bf16_t128_s3_2cta|$hg|-DM=333 -DN=248 -DK=520 -Dthreads=128 -Dblock_N=128 -Dtrans_B=True -Ddtype=T.bfloat16"
  "san_nn_f16_t128_2cta|$hg|-DM=333 -DN=248 -DK=200 -Dthreads=128 -Dblock_N=128"
  "nn_f16_t256_single_role|$hg|-DM=1000 -DN=520 -DK=200 $noWs"
)
# VERIFY (a regular expression): only the verification kernels it matches
# (by default all but the single-role one, which only tma_store proves).
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  if [ -n "${VERIFY:-}" ]; then [[ $name =~ $VERIFY ]] || continue
  elif [[ $name == *single_role ]]; then continue; fi
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs $st > /dev/null
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  grep -q "$proof" "$out/verify/$name/cuda/"*.cu || { echo "$name: not built as $variant" >&2; exit 1; }
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
# Benchmarks: shape x layout x dtype, each tiling WS and not.
# WS_TILINGS / BASE_TILINGS: the tilings built warp-specialised and as the
# single-role control (names of the table below).
tilings=(
  "t256|"
  "t256s4|-Dnum_stages=4"
  "t128|-Dthreads=128 -Dblock_N=128"
  "m256|-Dblock_M=256 -Dblock_N=128"
  "t256p4|-Dpanel=4"
  "t256p16|-Dpanel=16"
)
wsTilings=" ${WS_TILINGS:-t256 t128 m256} "
baseTilings=" ${BASE_TILINGS:-t256 t128 m256} "
jobs=()
dtypes=${GEMM_DTYPES:-f16 bf16}
[ "$variant" = tma_store ] && dtypes=${GEMM_DTYPES:-f16}
for s in 4096 8192; do
  for l in nn tn; do
    for dt in $dtypes; do
      d="-DM=$s -DN=$s -DK=$s"
      [ $l = tn ] && d="$d -Dtrans_B=True"
      [ $dt = bf16 ] && d="$d -Ddtype=T.bfloat16"
      if [ "$variant" = tma_store ]; then
        jobs+=("st_t256_${l}_${dt}_$s|$d $st" "nost_t256_${l}_${dt}_$s|$d")
        continue
      fi
      for t in "${tilings[@]}"; do
        IFS='|' read -r tn tdefs <<< "$t"
        [[ $wsTilings == *" $tn "* ]] && jobs+=("ws_${tn}_${l}_${dt}_$s|$d $tdefs")
        [[ $baseTilings == *" $tn "* ]] && jobs+=("base_${tn}_${l}_${dt}_$s|$d $tdefs $noWs")
      done
    done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '
  IFS="|" read -r name defs <<< "{}"
  "'"$build"'/bin/tlc-build" "'"$hg"'" --target=cuda:sm_90a -o "'"$out"'/bench/$name" $defs > /dev/null && rm -rf "'"$out"'/bench/$name/tlc_device"'
cp "$bench/ws_gemm_bench.py" "$bench/ws_run.sh" "$out/"
echo "$variant" > "$out/variant"
echo "built into $out"

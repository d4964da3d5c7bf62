#!/bin/bash
# Builds one H200 call's artifacts for the TMA-store GEMM epilogue
# (tile-plan-tma's tile.tma_store; docs/perf/hopper-fa-pingpong.md) into
# OUT (default build-h200-tma-store):
#   verify/   GEMMs at ragged sizes (no dimension a multiple of its tile:
#             the boxes are clipped at the edges) with CPU-target references,
#             warp-specialised and single-role; every one TMA-stored
#   bench/    GEMM 4096^3 / 8192^3, NN/TN, f16 (GEMM_DTYPES): st_* with
#             tlc.tma_store (warp-specialised, TMA store), nost_* the same
#             tiling without it (the default)
# plus ws_gemm_bench.py and tma_store_run.sh, which runs it all (tlc-run and
# the launcher come from fa_pingpong_build.sh's directory, passed to it).
# Usage: tests/bench/CUDA/tma_store_build.sh BUILD_DIR [OUT]
set -eu
build=${1:?build directory with bin/tlc-build}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build-h200-tma-store}
bench=$root/tests/bench/CUDA
hg=$bench/hopper_gemm.py
rm -rf "$out"; mkdir -p "$out/verify" "$out/bench"
noWs=--pass-config=tl.disable_warp_specialized=True
st=--pass-config=tlc.tma_store=True
verify=(
  "nn_f16_t256_s3|$hg|-DM=1000 -DN=520 -DK=200"
  "tn_bf16_t256_s2|$hg|-DM=1000 -DN=520 -DK=200 -Dtrans_B=True -Ddtype=T.bfloat16 -Dnum_stages=2"
  "nn_f16_t256_single_role|$hg|-DM=1000 -DN=520 -DK=200 $noWs"
  "san_gemm_example|$root/examples/gemm.py|-Dm=333 -Dn=248 -Dk=200"
)
for v in "${verify[@]}"; do
  IFS='|' read -r name file defs <<< "$v"
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cuda:sm_90a -o "$out/verify/$name/cuda" $defs $st > /dev/null
  # shellcheck disable=SC2086
  "$build/bin/tlc-build" "$file" --target=cpu -o "$out/verify/$name/cpu" $defs > /dev/null
  grep -q "tmaStore<2>" "$out/verify/$name/cuda/"*.cu || { echo "$name: no TMA store" >&2; exit 1; }
  rm -rf "$out/verify/$name/cuda/tlc_device"
done
jobs=()
for s in 4096 8192; do
  for l in nn tn; do
    for dt in ${GEMM_DTYPES:-f16}; do
      d="-DM=$s -DN=$s -DK=$s"
      [ $l = tn ] && d="$d -Dtrans_B=True"
      [ $dt = bf16 ] && d="$d -Ddtype=T.bfloat16"
      jobs+=("st_t256_${l}_${dt}_$s|$d $st" "nost_t256_${l}_${dt}_$s|$d")
    done
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} bash -c '
  IFS="|" read -r name defs <<< "{}"
  "'"$build"'/bin/tlc-build" "'"$hg"'" --target=cuda:sm_90a -o "'"$out"'/bench/$name" $defs > /dev/null && rm -rf "'"$out"'/bench/$name/tlc_device"'
cp "$bench/ws_gemm_bench.py" "$bench/tma_store_run.sh" "$out/"
echo "built into $out"

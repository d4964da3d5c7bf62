#!/bin/bash
# Builds issue 13's breadth programs (tests/lit/Target/Cpp: gemm dtypes,
# reductions that keep their dimension, scalar fragments, fragment rows)
# for cuda:sm_90a and cuda:sm_80 with their CPU-target references, plus
# tlc-run and breadth_run.sh, into OUT (default build/h200-breadth), for one
# H200 run (docs/perf/breadth-h200.md).
# Usage: tests/bench/CUDA/breadth_build.sh BUILD_BIN [OUT]
set -eu
bin=${1:?build/bin with tlc-build and tlc-run}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${2:-$root/build/h200-breadth}
rm -rf "$out"; mkdir -p "$out/bin" "$out/progs"
cp "$bin/tlc-run" "$out/bin/"
cpp=$root/tests/lit/Target/Cpp
# name | file | -D bindings (ragged sizes).
progs=(
  "tf32_nt|gemm-tf32.py|"
  "tf32_nn|gemm-tf32.py|-DtA=False -DtB=False"
  "tf32_tn|gemm-tf32.py|-DtA=True -DtB=False"
  "tf32_tt|gemm-tf32.py|-DtA=True -DtB=True"
  "tf32_nt_large|gemm-tf32.py|-DM=1000 -DN=520 -DK=1000"
  "f64_nn|gemm-dtypes.py|-DtA=False -DtB=False"
  "f64_tt|gemm-dtypes.py|-DtA=True -DtB=True"
  "f64_nt_large|gemm-dtypes.py|-DM=1000 -DN=520 -DK=1000"
  "int8|gemm-dtypes.py|-Din_dtype=int8 -Daccum_dtype=int32 -Dout_dtype=int32"
  "uint8|gemm-dtypes.py|-Din_dtype=uint8 -Daccum_dtype=int32 -Dout_dtype=int32"
  "f16_f16acc|gemm-dtypes.py|-Din_dtype=float16 -Daccum_dtype=float16 -Dout_dtype=float16 -Dblock_K=16"
  "bf16_f32acc_bf16|gemm-dtypes.py|-Din_dtype=bfloat16 -Daccum_dtype=float32 -Dout_dtype=bfloat16"
  "reduce_keepdim|reduce-keepdim.py|"
  "scalar_fragments|scalar-fragments.py|"
  "fragment_rows|fragment-rows.py|"
)
for p in "${progs[@]}"; do
  IFS='|' read -r name file defs <<< "$p"
  for arch in sm_90a sm_80; do
    "$bin/tlc-build" "$cpp/$file" --target=cuda:$arch -o "$out/progs/$name/$arch" $defs > /dev/null
    rm -rf "$out/progs/$name/$arch/tlc_device"
  done
  "$bin/tlc-build" "$cpp/$file" --target=cpu -o "$out/progs/$name/cpu" $defs > /dev/null
done
cp "$root/tests/bench/CUDA/breadth_run.sh" "$root/tests/bench/CUDA/tf32_check.py" "$out/"
echo "built into $out"

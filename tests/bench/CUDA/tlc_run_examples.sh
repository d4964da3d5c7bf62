#!/bin/bash
# tlc-run --device cuda --verify on every example the CUDA emitter lowers, at
# ragged sizes, against the CPU reference artifact of the same instance.
#
#   tests/bench/CUDA/tlc_run_examples.sh build BIN_DIR ART_DIR
#       (here, with nvcc) tlc-build --target=cuda:sm_90a and --target=cpu
#       of every configuration into ART_DIR/NAME/{cuda,cpu}
#   tests/bench/CUDA/tlc_run_examples.sh run BIN_DIR ART_DIR [tlc-run args]
#       (on the GPU machine) tlc-run ART_DIR/NAME/cuda --device cuda
#       --reference ART_DIR/NAME/cpu --verify --bench
set -u
mode=${1:?build or run}
bin=${2:?directory of tlc-build and tlc-run}
art=${3:?artifact directory}
shift 3
root=$(cd "$(dirname "$0")/../../.." && pwd)
# name | example | -D bindings (ragged: no block divides them)
configs=(
  "ew_ragged|elementwise_add|-D M=1000 -D N=1000"
  "ew_small|elementwise_add|-D M=33 -D N=129"
  "softmax_ragged|softmax|-D M=37 -D N=1000"
  "rmsnorm_ragged|rms_norm|-D M=37 -D N=4096"
  "layernorm_ragged|layer_norm|-D m=37 -D n=2048"
  "transpose_ragged|transpose|-D m=1000 -D n=520"
  "cumsum_ragged|cumsum|-D batch=1 -D seq_len=1000 -D heads=64"
  "quant_ragged|per_token_quant|-D M=37 -D N=7168"
  "gemm_ragged|gemm|-D M=1000 -D N=520 -D K=200"
  "gemm_dynamic_ragged|gemm_dynamic|-D m=1000 -D n=520 -D k=200"
  "gemm_eager_ragged|gemm_eager|-D M=1000 -D N=520 -D K=200"
  "gemm_splitk_ragged|gemm_splitk|-D M=1000 -D N=520 -D K=200"
  "dequant_gemm_ragged|dequant_gemm|-D m=100 -D n=384 -D k=256"
  "fp8_gemm_ragged|fp8_gemm|-D M=100 -D N=520 -D K=256"
  "gqa_decode|gqa_decode|-D batch=1 -D heads=32 -D groups=8 -D seqlen_kv=1000 -D dim=128"
  "fa_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
  "fac_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
)
status=0
for c in "${configs[@]}"; do
  IFS='|' read -r name ex defs <<< "$c"
  if [ "$mode" = build ]; then
    # shellcheck disable=SC2086
    if "$bin/tlc-build" "$root/examples/$ex.py" --target=cuda:sm_90a $defs \
         -o "$art/$name/cuda" > "$art.$name.log" 2>&1 &&
       "$bin/tlc-build" "$root/examples/$ex.py" --target=cpu $defs \
         -o "$art/$name/cpu" >> "$art.$name.log" 2>&1; then
      echo "$name: built"
    else
      echo "$name: BUILD FAILED: $(grep -m2 error "$art.$name.log")"
      rm -rf "${art:?}/$name"
      status=1
    fi
  else
    [ -d "$art/$name/cuda" ] || continue
    echo "## tlc-run $art/$name/cuda --device cuda --reference $art/$name/cpu --verify --bench $defs $*"
    # shellcheck disable=SC2086
    timeout 120 "$bin/tlc-run" "$art/$name/cuda" --device cuda \
      --reference "$art/$name/cpu" --verify --bench $defs "$@" || status=1
  fi
done
exit $status

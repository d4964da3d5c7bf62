#!/bin/bash
# The sim device against the GPU (issue 16: "on the H200, the same artifacts
# run on cuda and sim and agree bit for bit where the arithmetic is
# deterministic"). Two steps, the artifacts travelling between them:
#
#   tests/bench/Sim/h200_vs_sim.sh gpu BIN_DIR OUT_DIR
#       (on the GPU machine) tlc-build --target=cuda:sm_90a every
#       configuration below into OUT_DIR/NAME/art, then tlc-run it with
#       --device cuda --seed 7 --save OUT_DIR/NAME/cuda (inputs before the
#       run in OUT_DIR/NAME/cuda/inputs); $JOBS builds at once (default 8)
#   tests/bench/Sim/h200_vs_sim.sh sim BIN_DIR OUT_DIR
#       (anywhere, with clang++ for the sim) tlc-run the same OUT_DIR/NAME/art
#       with --device sim --inputs OUT_DIR/NAME/cuda/inputs --save
#       OUT_DIR/NAME/sim, then compare_saved.py prints, per output, how many
#       elements are bit-identical and the largest difference
#
# Sizes are small and ragged (no tile divides them) so the sim finishes in
# seconds; every configuration is one kernel (--kernel where a file has
# several).
set -u
mode=${1:?gpu or sim}
bin=${2:?directory of tlc-build and tlc-run}
out=${3:?output directory}
root=$(cd "$(dirname "$0")/../../.." && pwd)
# name | program (examples/NAME or a path without .py) | kernel | -D bindings
configs=(
  "gemm_f16|gemm||-D M=200 -D N=136 -D K=100"
  "gemm_bf16|gemm||-D M=200 -D N=136 -D K=100 -D dtype=T.bfloat16"
  "gemm_eager|gemm_eager||-D M=200 -D N=136 -D K=100"
  "gemm_dynamic|gemm_dynamic||-D m=200 -D n=136 -D k=100"
  "fp8_gemm|fp8_gemm||-D M=100 -D N=136 -D K=128"
  "dequant_gemm|dequant_gemm||-D m=100 -D n=384 -D k=256"
  "fa_d64|flash_attention_fwd||-D batch=1 -D heads=2 -D seq_len=200 -D dim=64"
  "fa_d128|flash_attention_fwd||-D batch=1 -D heads=2 -D seq_len=200 -D dim=128"
  "fa_causal_d128|flash_attention_causal||-D batch=1 -D heads=2 -D seq_len=200 -D dim=128"
  "gqa_decode|gqa_decode||-D batch=2 -D heads=32 -D groups=8 -D seqlen_kv=300 -D dim=128"
  "softmax|softmax||-D M=37 -D N=300"
  "softmax_rows|softmax_rows||-D M=37 -D N=1000"
  "rms_norm|rms_norm||-D M=37 -D N=1024"
  "layer_norm|layer_norm||-D m=37 -D n=1024"
  "transpose|transpose||-D m=100 -D n=70"
  "cumsum|cumsum||-D batch=1 -D seq_len=300 -D heads=8"
  "per_token_quant|per_token_quant||-D M=37 -D N=1024"
  "elementwise_add|elementwise_add|elementwise_add|-D M=100 -D N=130"
  "fragment_exchange|tests/lit/Target/CUDA/fragment-exchange|transpose_read|"
  "ws_gemm|tests/lit/Target/CUDA/ws-gemm|ws_gemm|"
  "strided_views|tests/lit/Target/CUDA/strided-params|views|"
  "sync_grid|tests/lit/Target/Cpp/sync-grid|two_phase|"
)
src() {
  case $1 in */*) echo "$root/$1.py";; *) echo "$root/examples/$1.py";; esac
}
mkdir -p "$out"
case $mode in
gpu)
  build_one() {
    IFS='|' read -r name prog kern defs <<< "$1"
    # shellcheck disable=SC2086
    "$bin/tlc-build" "$(src "$prog")" --target=cuda:sm_90a \
      -o "$out/$name/art" $defs > "$out/$name/build.log" 2>&1 ||
      echo "$name: build failed (rc $?)"
  }
  for c in "${configs[@]}"; do mkdir -p "$out/${c%%|*}"; done
  running=0
  for c in "${configs[@]}"; do
    build_one "$c" &
    running=$((running + 1))
    if [ $running -ge "${JOBS:-8}" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for c in "${configs[@]}"; do
    IFS='|' read -r name prog kern defs <<< "$c"
    k=(); [ -n "$kern" ] && k=(--kernel "$kern")
    "$bin/tlc-run" "$out/$name/art" "${k[@]}" --device cuda --seed 7 \
      --save "$out/$name/cuda" > "$out/$name/cuda.log" 2>&1
    echo "$name: cuda rc=$?"
  done
  ;;
sim)
  for c in "${configs[@]}"; do
    IFS='|' read -r name prog kern defs <<< "$c"
    [ -d "$out/$name/cuda/inputs" ] || { echo "$name: no GPU run"; continue; }
    k=(); [ -n "$kern" ] && k=(--kernel "$kern")
    "$bin/tlc-run" "$out/$name/art" "${k[@]}" --device sim \
      --inputs "$out/$name/cuda/inputs" --save "$out/$name/sim" \
      > "$out/$name/sim.log" 2>&1
    echo "$name: sim rc=$?"
  done
  "${PYTHON:-python3}" "$root/tests/bench/Sim/compare_saved.py" "$out"
  ;;
*) echo "unknown mode '$mode'" >&2; exit 2;;
esac

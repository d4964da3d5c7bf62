#!/bin/bash
# tlc-run --device cuda --verify on every example the CUDA emitter lowers, at
# ragged sizes, against the CPU reference artifact of the same instance; and
# the same runs under compute-sanitizer memcheck and racecheck.
#
#   tests/bench/CUDA/tlc_run_examples.sh build BIN_DIR ART_DIR
#       (here, with nvcc, or NVRTC where a configuration says so)
#       tlc-build --target=cuda:sm_90a and --target=cpu of every
#       configuration into ART_DIR/NAME/{cuda,cpu}, $TLC_BUILD_JOBS at
#       once (default 1)
#   tests/bench/CUDA/tlc_run_examples.sh run BIN_DIR ART_DIR [tlc-run args]
#       (on the GPU machine) tlc-run ART_DIR/NAME/cuda --device cuda
#       --reference ART_DIR/NAME/cpu --verify --bench, then one summary line
#       per configuration
#   tests/bench/CUDA/tlc_run_examples.sh sanitize BIN_DIR ART_DIR
#       (on the GPU machine) every built configuration under
#       compute-sanitizer --tool memcheck and --tool racecheck (tlc-run
#       --verify); one line per kernel and tool. Stops starting new runs after
#       $TLC_SANITIZE_BUDGET seconds (default 200) and says which it skipped.
#
# --dry-run (after the mode) prints what would run and changes nothing.
# A configuration that fails to build, verify or sanitize is reported and the
# others go on; the exit status is 1 when any did.
set -u
mode=${1:?build, run or sanitize}
bin=${2:?directory of tlc-build and tlc-run}
art=${3:?artifact directory}
shift 3
dry=0
if [ "${1:-}" = --dry-run ]; then
  dry=1
  shift
fi
case $mode in build|run|sanitize) ;; *) echo "unknown mode '$mode'" >&2; exit 2;; esac
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
  "gemm_bf16_ragged|gemm|-D M=1000 -D N=520 -D K=200 -D dtype=T.bfloat16"
  "gemm_dynamic_ragged|gemm_dynamic|-D m=1000 -D n=520 -D k=200"
  "gemm_eager_ragged|gemm_eager|-D M=1000 -D N=520 -D K=200"
  "gemm_splitk_ragged|gemm_splitk|-D M=1000 -D N=520 -D K=200"
  "dequant_gemm_ragged|dequant_gemm|-D m=100 -D n=384 -D k=256"
  "fp8_gemm_ragged|fp8_gemm|-D M=100 -D N=520 -D K=256"
  "gqa_decode_ragged|gqa_decode|-D batch=3 -D heads=64 -D groups=1 -D seqlen_kv=1000 -D dim=128"
  "gqa_decode_g8_ragged|gqa_decode|-D batch=3 -D heads=32 -D groups=8 -D seqlen_kv=1000 -D dim=128"
  "fa_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
  "fac_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
  # Row-resident softmax and rms_norm at one row per block (last, so that a
  # spent sanitizer budget skips these before the older configurations).
  "softmax_rows_ragged|softmax_rows|-D M=37 -D N=1000"
  "softmax_rows_b2_ragged|softmax_rows|-D M=37 -D N=1000 -D block_M=2 -D threads=128"
  "rmsnorm_t256_ragged|rms_norm|-D M=37 -D N=4096 -D threads=256"
  # The same kernels compiled in process by NVRTC (--cuda-compiler=nvrtc).
  "gemm_nvrtc_ragged|gemm|-D M=1000 -D N=520 -D K=200|nvrtc"
  "fa_nvrtc_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128|nvrtc"
  "fp8_gemm_nvrtc_ragged|fp8_gemm|-D M=100 -D N=520 -D K=256|nvrtc"
  # Fragments read and written in another thread's layout (a shared-memory
  # exchange around the T.Parallel); a program of the lit tests.
  "fragment_exchange|tests/lit/Target/CUDA/fragment-exchange|"
  # Blocks of several thread dimensions (threads=[32, 8], [32, 4, 2]).
  "warp_rows_2d|tests/lit/Conformance/b-warp-rows|"
  "thread_binding_3d|tests/lit/Target/CUDA/thread-binding|"
)
# Runs "$@" (or prints it with --dry-run).
run() {
  if [ $dry = 1 ]; then
    echo "would run: $*"
    return 0
  fi
  "$@"
}
# Builds one configuration; its result line goes to $art/NAME.result.
build_one() {
  local name=$1 src=$2 defs=$3 compiler=$4
  # shellcheck disable=SC2086
  if "$bin/tlc-build" "$src" --target=cuda:sm_90a $defs \
       --cuda-compiler="${compiler:-auto}" \
       -o "$art/$name/cuda" > "$art/$name.log" 2>&1 &&
     "$bin/tlc-build" "$src" --target=cpu $defs \
       -o "$art/$name/cpu" >> "$art/$name.log" 2>&1; then
    echo "$name: built" > "$art/$name.result"
  else
    echo "$name: BUILD FAILED: $(grep -m2 error "$art/$name.log" | tr '\n' ' ')" \
      > "$art/$name.result"
    rm -rf "${art:?}/$name"
  fi
}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
budget=${TLC_SANITIZE_BUDGET:-200}
start=$SECONDS
status=0
summary=()
for c in "${configs[@]}"; do
  IFS='|' read -r name ex defs compiler <<< "$c"
  # An example's name, or a program's path under the repository.
  src=$root/examples/$ex.py
  case $ex in */*) src=$root/$ex.py;; esac
  if [ "$mode" = build ]; then
    if [ $dry = 1 ]; then
      echo "would build: $bin/tlc-build $src --target=cuda:sm_90a $defs --cuda-compiler=${compiler:-auto} -o $art/$name/cuda (and --target=cpu -o $art/$name/cpu)"
      continue
    fi
    mkdir -p "$art"
    # $TLC_BUILD_JOBS configurations at once (default 1).
    while [ "$(jobs -rp | wc -l)" -ge "${TLC_BUILD_JOBS:-1}" ]; do wait -n; done
    build_one "$name" "$src" "$defs" "$compiler" &
    continue
  fi
  if [ ! -d "$art/$name/cuda" ] && [ $dry = 0 ]; then
    summary+=("$(printf '%-22s NOT BUILT (see the build log)' "$name")")
    continue
  fi
  # shellcheck disable=SC2206
  cmd=("$bin/tlc-run" "$art/$name/cuda" --device cuda
       --reference "$art/$name/cpu" --verify $defs)
  if [ "$mode" = run ]; then
    echo "## ${cmd[*]} --bench $*"
    t0=$SECONDS
    run timeout 120 "${cmd[@]}" --bench "$@"
    rc=$?
    [ $rc = 0 ] || status=1
    case $rc in 0) what=PASS;; 124) what="TIMEOUT (120 s)";; *) what="FAIL (exit $rc)";; esac
    summary+=("$(printf '%-22s %s, %d s' "$name" "$what" $((SECONDS - t0)))")
    continue
  fi
  for tool in memcheck racecheck; do
    if [ $dry = 0 ] && [ $((SECONDS - start)) -ge "$budget" ]; then
      summary+=("$(printf '%-10s %-22s SKIPPED (sanitizer budget of %d s spent)' $tool "$name" "$budget")")
      status=1
      continue
    fi
    if [ $dry = 1 ]; then
      echo "would run: $cs --tool $tool --report-api-errors no ${cmd[*]}"
      continue
    fi
    t0=$SECONDS
    log="$art/$name.$tool.log"
    timeout 90 "$cs" --tool $tool --report-api-errors no "${cmd[@]}" > "$log" 2>&1
    rc=$?
    # memcheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY:
    # N hazards displayed (E errors, W warnings)".
    found=$(grep -oE "(ERROR|RACECHECK) SUMMARY: .*" "$log" | tail -1)
    verdict="verify: $(grep -cE "^ *verify .*: PASS" "$log") PASS, $(grep -cE "^ *verify .*: FAIL" "$log") FAIL"
    if [ $rc = 124 ]; then
      line="TIMEOUT (90 s)"
    elif [ -z "$found" ]; then
      line="NO SANITIZER SUMMARY (exit $rc): $(grep -m1 -iE "error" "$log")"
    else
      line="$found"
    fi
    if [ $rc != 0 ] || ! echo "$found" | grep -qE "SUMMARY: 0 (errors|hazards)"; then
      status=1
      line="FAIL: $line; log $log"
      grep -E "^========= (Invalid|Race|Error|  )" "$log" | head -6 | sed 's/^/    /'
    fi
    summary+=("$(printf '%-10s %-22s %s; tlc-run exit %d, %s; %d s' $tool "$name" "$line" $rc "$verdict" $((SECONDS - t0)))")
  done
done
if [ "$mode" = build ] && [ $dry = 0 ]; then
  wait
  for c in "${configs[@]}"; do
    IFS='|' read -r name _ <<< "$c"
    cat "$art/$name.result" 2>/dev/null || echo "$name: BUILD FAILED: no result"
    grep -q "BUILD FAILED" "$art/$name.result" 2>/dev/null && status=1
  done
fi
if [ "$mode" != build ] && [ $dry = 0 ]; then
  echo "## summary ($mode)"
  printf '%s\n' "${summary[@]}"
fi
exit $status

#!/bin/bash
# Issue 15's GPU run in ONE device call of at most BUDGET seconds (default
# 540, under the device tool's 9.5-minute call): the package with CUDA
# tensors (docs/perf/python-package-h200.md) and the public scripts
# (docs/perf/python-public-scripts-h200.md).
#  1. tests/python/cuda_smoke.py: tests/python's CPU-CI factories with CUDA
#     tensors, and bad calls on CUDA;
#  2. every examples/*.py through the package, float64 torch references
#     (tests/python/float64_reference.py), 6 at a time, cold cache;
#  3. the GEMM autotune over 16 configurations, Python
#     (tests/python/cuda_autotune_gemm.py) and command line (tlc-build
#     --autotune tests/python/cuda_tune_gemm_both.py), each with a cold and
#     then a warm cache ("built 16/16 configurations in S s (cache hits H,
#     compiled C)" is the build time); tlc-build -j16 and -j1 of every
#     example, cold and warm;
#  4. the stage's public scripts (STAGE/go.sh, SCRIPTS=STAGE/order.txt) in
#     the time left, PAR at a time, each within LIMIT seconds.
# Parts 1-3 together stop by PKG_BUDGET seconds (default 240; typically
# about 150 on an H200); each step has its own limit within that.
#
# Stage here, after `ninja -C build tlc-build tlc_cuda` (PACK=1: the
# binaries xz-compressed, for the 64 MiB carry limit; EXTRA: sibling
# modules the corpora lack, see h200_stage_public_scripts.sh):
#   PACK=1 LOG=docs/perf/python-public-scripts-h100-run22.txt EXTRA=DIR \
#     bash tests/python/h200_stage_public_scripts.sh build-h200-issue15
# (EXTRA=DIR: fetched sibling modules the corpora lack, a FETCH.txt of
# "NAME UPSTREAM-PATH" lines; run 23 staged examples/deepseek_v32/utils.py,
# gdn/utils.py, dsa_sparse_finetune/utils.py, blocksparse_attention/
# heuristic.py and fusedmoe/example_fusedmoe_torch.py)
# On the device, from the repository root (carry build-h200-issue15):
#   STAGE=build-h200-issue15 bash tests/python/h200_issue15.sh
# Output: $OUT/package.txt (parts 1-3), $OUT/examples.log (each example's
# output), $OUT/py/{summary,logs,machine}.txt (part 4).
#
# DRY=1 checks the stage on a machine without a GPU (DRY_PYTHON: a python
# with torch, default python3): part 1 and the
# public scripts DRY_SCRIPTS (default: three small ones) run on tlc's CPU
# target through tests/python/cuda_script_on_cpu.py; parts 2 and 3 build
# every example and both autotune files for cuda:sm_90a with nvcc
# (tlc-build -o, -j, and --autotune up to its runs) instead of running them.
cd "$(dirname "$0")/../.."
ROOT=$PWD
S=$(cd "${STAGE:?set STAGE to the staged folder}" && pwd)
OUT=${OUT:-/tmp/out}; BUDGET=${BUDGET:-540}; PKG_BUDGET=${PKG_BUDGET:-240}
START=$(date +%s)
for f in "$S/bin/tlc-build" "$S/lib/libtlc_cuda.so"; do
  [ -e "$f.xz" ] && [ ! -e "$f" ] && xz -dk "$f.xz"
done
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
PY=python3
[ "${DRY:-0}" = 1 ] && PY="${DRY_PYTHON:-/usr/bin/python3} $ROOT/tests/python/cuda_script_on_cpu.py"
mkdir -p "$OUT" /tmp/i15
# lim CAP: CAP, or the seconds left of parts 1-3 if fewer (0 when none).
lim() {
  local left=$(( START + PKG_BUDGET - $(date +%s) ))
  [ $left -lt "$1" ] && echo $(( left > 0 ? left : 0 )) || echo "$1"
}
# step CAP NAME COMMAND...: runs COMMAND within lim(CAP) seconds, its
# output's last lines (TAIL, 12) after a heading; skipped when under 5 s are left.
step() {
  local cap=$(lim "$1") name=$2 s e rc; shift 2
  echo "== $name"
  : > /tmp/i15/step.log
  if [ "$cap" -lt 5 ]; then echo "skipped: parts 1-3 used their ${PKG_BUDGET}s"; return; fi
  s=$(date +%s%N)
  timeout "$cap" "$@" > /tmp/i15/step.log 2>&1; rc=$?
  e=$(date +%s%N)
  tail -n "${TAIL:-12}" /tmp/i15/step.log
  echo "rc=$rc wall $(( (e - s) / 1000000 )) ms (limit ${cap}s)"
}
example() {  # one examples/*.py with float64 references, one row
  local f=$1 lg=/tmp/i15/ex-$(basename "$1").log s e rc
  s=$(date +%s%N); timeout "$2" $PY tests/python/float64_reference.py "$f" > "$lg" 2>&1; rc=$?
  e=$(date +%s%N)
  printf "%-34s rc=%d %5.1fs | %s\n" "$f" $rc "$(( (e - s) / 100000000 ))e-1" \
    "$(grep -v '^ *$' "$lg" | tail -1 | cut -c1-150)"
}
export -f example; export PY
{
  if [ "${DRY:-0}" = 1 ]; then
    echo "DRY run on $(hostname): no GPU; CPU target and nvcc builds"
  else
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  fi
  ${DRY_PYTHON:-python3} -c "import torch; print('torch', torch.__version__)" 2>&1 | tail -1
  nvcc --version | tail -1
  echo "stage: $(cat "$S/commit.txt" 2>/dev/null || echo 'commit unknown')"
  TLC_CACHE_DIR=/tmp/i15/c-smoke step 120 "tests/python/cuda_smoke.py" $PY tests/python/cuda_smoke.py
  if [ "${DRY:-0}" = 1 ]; then
    for run in cold warm; do
      TLC_CACHE_DIR=/tmp/i15/c-ex step 150 "examples/*.py built for cuda:sm_90a by nvcc (-j2), $run" \
        "$TLC_BUILD" --target=cuda:sm_90a -j2 -o /tmp/i15/ex-$run examples/*.py
      TAIL=3 TLC_CACHE_DIR=/tmp/i15/c-cli step 150 "tlc-build --autotune tests/python/cuda_tune_gemm_both.py: its 16 configurations built; running them needs the GPU, $run" \
        "$TLC_BUILD" --target=cuda:sm_90a --autotune -j2 -o /tmp/i15/cli-$run tests/python/cuda_tune_gemm_both.py
      TLC_CACHE_DIR=/tmp/i15/c-tune step 150 "tests/python/cuda_autotune_gemm.py built for cuda:sm_90a (-o), $run" \
        "$TLC_BUILD" --target=cuda:sm_90a -o /tmp/i15/py-$run tests/python/cuda_autotune_gemm.py
    done
  else
    echo "== examples/*.py through the package, float64 references (cold cache)"
    cap=$(lim 150)
    if [ "$cap" -lt 5 ]; then echo "skipped: parts 1-3 used their ${PKG_BUDGET}s"; else
      ls examples/*.py | TLC_CACHE_DIR=/tmp/i15/c-ex xargs -P 6 -I{} bash -c "example {} $cap" | sort
    fi
    cat /tmp/i15/ex-*.log > "$OUT/examples.log" 2>/dev/null
    TLC_CACHE_DIR=/tmp/i15/c-ex step 60 "tests/python/cuda_fp8_rounding.py" $PY tests/python/cuda_fp8_rounding.py
    TAIL=22 TLC_CACHE_DIR=/tmp/i15/c-tune step 150 "tests/python/cuda_autotune_gemm.py (Python autotuner, 16 configurations): cold" \
      $PY tests/python/cuda_autotune_gemm.py
    TAIL=4 TLC_CACHE_DIR=/tmp/i15/c-tune step 60 "tests/python/cuda_autotune_gemm.py: warm" \
      $PY tests/python/cuda_autotune_gemm.py
    for run in cold warm; do
      TAIL=20 TLC_CACHE_DIR=/tmp/i15/c-cli step 120 "tlc-build --autotune tests/python/cuda_tune_gemm_both.py (16 configurations): $run" \
        "$TLC_BUILD" --target=cuda:sm_90a --autotune -o /tmp/i15/cli-$run tests/python/cuda_tune_gemm_both.py
    done
    for run in cold warm; do
      TAIL=2 TLC_CACHE_DIR=/tmp/i15/c-j step 60 "tlc-build -j16 -o of every example: $run" \
        "$TLC_BUILD" --target=cuda:sm_90a -j16 -o /tmp/i15/j-$run examples/*.py
      echo "$(grep -c '^wrote' /tmp/i15/step.log) binaries, $(grep -c '(cached)' /tmp/i15/step.log) from the cache"
    done
    TAIL=1 TLC_CACHE_DIR=/tmp/i15/c-j1 step 60 "tlc-build -j1 -o of every example: cold" \
      "$TLC_BUILD" --target=cuda:sm_90a -o /tmp/i15/j1 examples/*.py
  fi
  echo "== parts 1-3: $(( $(date +%s) - START )) s"
} 2>&1 | tee "$OUT/package.txt"

# Part 4: the public scripts in the time left (20 s kept for the logs).
TOTAL=$(( START + BUDGET - 20 - $(date +%s) ))
echo "== public scripts: ${TOTAL}s"
if [ "${DRY:-0}" = 1 ]; then
  export SCRIPTS="${DRY_SCRIPTS:-example_elementwise_add.py example_gemm.py example_tilelang_gemm_splitk.py}"
  export RUNNER="$PY" LOGDIR=/tmp/i15/logs LONG=""
  rm -rf /tmp/i15/logs
else
  export SCRIPTS="$(cat "$S/order.txt")"
fi
LIMIT=${LIMIT:-60} PAR=${PAR:-12} TOTAL=$TOTAL OUT=$OUT/py \
  LONG="${LONG-example_gemm_autotune.py example_dequant_gemm_w4a8.py example_fusedmoe_tilelang.py}" \
  LONG_LIMIT=${LONG_LIMIT:-200} bash "$S/go.sh"
echo "$(grep -c 'rc=0 ' "$OUT/py/summary.txt") of $(wc -l < "$OUT/py/summary.txt") pass; total $(( $(date +%s) - START )) s"

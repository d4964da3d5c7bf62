#!/bin/bash
# Public TileLang scripts written for CUDA, unchanged, on the package's CPU
# target with Debian's CPU torch (docs/perf/python-public-scripts-h200.md,
# "CPU"). The scripts are not part of the repository: put them in DIR.
#   bash tests/python/cpu_public_scripts.sh DIR OUTFILE
# Each line of the list below is "SCRIPT ARGS" (sizes the CPU finishes in
# minutes; the scripts' own argparse options); each script runs from DIR as
# __main__ (a test file's `tilelang.testing.main()`, an example's `main()`).
# With SCRIPTS="a.py b.py" those scripts run instead, without arguments;
# with LIST=FILE the lines of FILE ("SCRIPT ARGS", '#' comments;
# cpu_public_scripts_corpus.list is /work/corpus's). LIMIT= is the time
# limit of one script (900 s), JOBS= how many run at once (1); rows are
# written in the list's order (and to stderr as each ends); LOGS=DIR keeps
# each script's output as DIR/SCRIPT.log; TLC_STACKS_EVERY=S puts every
# thread's Python stack into that output every S seconds (where a slow
# script's time goes). Needs build/bin/tlc-build.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$(cd "${1:?corpus dir}" && pwd); OUTFILE=${2:?output file}
export TLC_BUILD=${TLC_BUILD:-$ROOT/build/bin/tlc-build}
export TLC_CACHE_DIR=${TLC_CACHE_DIR:-$ROOT/build/tests/python/cache-public}
[ -n "$LOGS" ] && mkdir -p "$LOGS"
ROWS=$(mktemp -d)
trap 'rm -rf "$ROWS"' EXIT

# run INDEX SCRIPT ARGS...: one row into $ROWS/INDEX.
run() {
  local index=$1 script=$2; shift 2
  local log=$ROWS/$index.log s=$(date +%s)
  (cd "$DIR" && timeout ${LIMIT:-900} /usr/bin/python3 \
     "$ROOT/tests/python/cuda_script_on_cpu.py" $script "$@") > "$log" 2>&1
  local rc=$?
  printf "%-42s %-40s rc=%-3d %4ds | %s\n" "$script" "$*" $rc \
    $(( $(date +%s) - s )) \
    "$(grep -v '^ *$' "$log" | tail -1 | cut -c1-150)" > "$ROWS/$index.row"
  cat "$ROWS/$index.row" >&2  # progress
  if [ -n "$LOGS" ]; then cp "$log" "$LOGS/$script.log"; fi
}

n=0
while read -r script args; do
  case "$script" in ''|'#'*) continue ;; esac
  while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-1}" ]; do wait -n; done
  run $n "$script" $args &
  n=$((n + 1))
done < <(if [ -n "$SCRIPTS" ]; then printf '%s\n' $SCRIPTS
         elif [ -n "$LIST" ]; then cat "$LIST"; else cat <<'LIST'
example_gemm_schedule.py
example_gemm_autotune_pass_configs.py --m 256 --n 256 --k 256
example_gemm_autotune_early_stop.py --m 256 --n 256 --k 256
example_gqa_fwd_bshd.py --heads 4 --groups 2 --seq_len 128 --dim 64
test_tilelang_profiler_dynamic_symbolic.py
test_tilelang_jit_output_selection.py
test_tilelang_jit_uint64.py
test_tilelang_profiler.py
test_tilelang_jit_nullptr.py
LIST
fi)
wait
: > "$OUTFILE"
for ((i = 0; i < n; i++)); do
  cat "$ROWS/$i.row" | tee -a "$OUTFILE"
done

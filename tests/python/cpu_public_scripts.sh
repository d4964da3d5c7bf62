#!/bin/bash
# Public TileLang scripts written for CUDA, unchanged, on the package's CPU
# target with Debian's CPU torch (docs/perf/python-public-scripts-h200.md,
# "CPU"). The scripts are not part of the repository: put them in DIR.
#   bash tests/python/cpu_public_scripts.sh DIR OUTFILE
# Each line of the list below is "SCRIPT ARGS" (sizes the CPU finishes in
# minutes; the scripts' own argparse options). With SCRIPTS="a.py b.py"
# those scripts run instead, without arguments. Needs build/bin/tlc-build.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$(cd "${1:?corpus dir}" && pwd); OUTFILE=${2:?output file}
export TLC_BUILD=${TLC_BUILD:-$ROOT/build/bin/tlc-build}
export TLC_CACHE_DIR=${TLC_CACHE_DIR:-$ROOT/build/tests/python/cache-public}
: > "$OUTFILE"
while read -r script args; do
  [ -z "$script" ] && continue
  s=$(date +%s)
  (cd "$DIR" && timeout ${LIMIT:-900} /usr/bin/python3 \
     "$ROOT/tests/python/cuda_script_on_cpu.py" $script $args) > /tmp/cpu-pub.log 2>&1
  rc=$?
  printf "%-42s %-40s rc=%-3d %4ds | %s\n" "$script" "$args" $rc $(( $(date +%s) - s )) \
    "$(grep -v '^ *$' /tmp/cpu-pub.log | tail -1 | cut -c1-150)" | tee -a "$OUTFILE"
done < <(if [ -n "$SCRIPTS" ]; then printf '%s\n' $SCRIPTS; else cat <<'LIST'
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

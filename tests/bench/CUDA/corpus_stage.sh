#!/bin/bash
# Stages a GPU-host corpus check (docs/perf/corpus-h200.md) into OUT
# (default build-h200-corpus): this tree's tlc-build and tlc-run
# (xz-compressed), the example programs of a corpus TREE laid out as in
# their repository (examples/FOLDER/FILE.py, so sibling imports resolve),
# tests/bench/numerics' input generators and per-file options, and
# corpus_check.sh; go.sh unpacks the binaries and runs the check within
# TOTAL seconds (default 540). On the GPU machine, from the repository
# root with the stage carried:
#   OUT=$OUT bash build-h200-corpus/go.sh
# Usage: tests/bench/CUDA/corpus_stage.sh BUILD_DIR TREE [OUT]
set -eu
build=${1:?build directory with bin/tlc-build and bin/tlc-run}
tree=${2:?corpus tree holding examples/}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=${3:-$root/build-h200-corpus}
rm -rf "$out"; mkdir -p "$out/bin" "$out/corpus" "$out/scripts"
for b in tlc-build tlc-run; do
  strip -o "$out/bin/$b" "$build/bin/$b"; xz -T2 -6 "$out/bin/$b"
done
cp -r "$tree/examples" "$out/corpus/"
cp "$root"/tests/bench/numerics/*.py "$out/scripts/"
cp "$root/tests/bench/numerics/corpus-runargs.txt" "$out/runargs.txt"
cp "$root/tests/bench/CUDA/corpus_check.sh" "$out/"
cat > "$out/go.sh" <<'RUN'
#!/bin/bash
# The staged corpus check: summary.txt (one line per program: run=0 agrees
# with the CPU target, run=1 disagrees, run=124 over LIMIT, build=... did
# not build), runlogs.txt, buildlogs.txt, env.log.
S=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p "$O"
for b in tlc-build tlc-run; do
  [ -f "$S/bin/$b" ] || { xz -dc "$S/bin/$b.xz" > "$S/bin/$b"; chmod +x "$S/bin/$b"; }
done
nvidia-smi --query-gpu=name,driver_version --format=csv > "$O/env.log"
BUILD_LIMIT=${BUILD_LIMIT:-60} LIMIT=${LIMIT:-40} PAR=${PAR:-8} THREADS=${THREADS:-2} \
  timeout "${TOTAL:-540}" bash "$S/corpus_check.sh" "$S" > "$O/check.log" 2>&1
echo "rc=$?" >> "$O/check.log"
[ -f "$O/summary.txt" ] || cp "$O/partial.txt" "$O/summary.txt" 2>/dev/null
tail -3 "$O/check.log"
RUN
du -sh "$out"

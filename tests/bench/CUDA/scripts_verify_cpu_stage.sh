#!/bin/bash
# Stages the public TileLang scripts for a run on the H200 with the Python
# package's differential mode (TLC_VERIFY_CPU=1, python/tilelang/
# _verify_cpu.py): every kernel call of a script is checked against the
# cpu-target build of the same instance, on the script's own inputs. Run
# from a checkout's root; BUILD (default build, or /work/main/build) holds
# bin/tlc-build and lib/libtlc_cuda.so. The scripts stay out of the
# repository: the stage is an ignored folder (/build*/).
#   BUILD=/work/main/build bash tests/bench/CUDA/scripts_verify_cpu_stage.sh [STAGE]
# then on the device (carry STAGE), one call of at most 10 minutes:
#   LIMIT=150 PAR=4 TOTAL=540 OUT=$OUT/pv bash STAGE/go.sh
# with SCRIPTS="a.py b.py" for another list (default: STAGE/scripts.txt,
# the examples; STAGE/tests.txt lists the test files).
# Corpus files named like examples__flash_attention__example_mha.py are
# staged under their own name (example_mha.py) next to their sibling
# modules (varlen_utils.py, bert_padding.py, ...), as
# tests/python/h200_stage_public_scripts.sh stages them.
set -e
S=${1:-build-h200-pyverify}
B=${BUILD:-build}
rm -rf "$S"
mkdir -p "$S/bin" "$S/lib" "$S/python" "$S/corpus"
cp "$B/bin/tlc-build" "$S/bin/" && strip "$S/bin/tlc-build"
cp "$B/lib/libtlc_cuda.so" "$S/lib/"
cp -r python/tilelang python/tvm "$S/python/"
find "$S/python" -name __pycache__ -prune -exec rm -rf {} +
for f in ${CORPUS:-/work/corpus} ${CORPUS_TESTS:-/work/corpus-tests}; do
  [ -d "$f" ] && cp "$f"/*.py "$S/corpus/"
done
for f in "$S"/corpus/*__*.py; do
  base=${f##*/}
  case "$base" in
    # Not CUDA programs (Ascend, AMD) or Blackwell-only.
    examples__ascend__* | examples__amd__* | examples__blackwell_sm100__*)
      rm -f "$f"; continue ;;
  esac
  mv "$f" "$S/corpus/${f##*__}"
done
rm -f "$S"/corpus/gemm_tcgen5mma_*.py "$S/corpus/gemm_mxfp8_blockscaled_1d1d.py"
# The scripts: files that run something when executed (a __main__ block),
# without the sibling modules they import.
: > "$S/scripts.txt"; : > "$S/tests.txt"
for f in "$S"/corpus/*.py; do
  base=${f##*/}
  grep -q "__main__" "$f" || continue
  case "$base" in
    test_*) echo "$base" >> "$S/tests.txt" ;;
    *) echo "$base" >> "$S/scripts.txt" ;;
  esac
done
cp tests/bench/CUDA/scripts_verify_cpu.sh "$S/go.sh"
git rev-parse HEAD > "$S/commit.txt"
echo "staged $(wc -l < "$S/scripts.txt") scripts and $(wc -l < "$S/tests.txt")" \
  "test files in $S ($(du -sh "$S" | cut -f1))"

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
# Scripts whose inputs have a contract (varlen prefix sums, paged caches,
# block indices, top-k selections, group sizes) first: they are what
# tlc-run's random inputs cannot check.
contract='varlen|paged|sparse|topk|nsa|moe|cumsum|block_sparse|blocksparse'
{ grep -E "$contract" "$S/scripts.txt"; grep -v -E "$contract" "$S/scripts.txt"; } \
  > "$S/scripts.sorted" && mv "$S/scripts.sorted" "$S/scripts.txt"
# Smaller sizes, through the scripts' own options, where the CPU twin
# would need minutes at the defaults (go.sh uses them unless OWN_SIZES=1).
cat > "$S/args.txt" <<'ARGS'
example_gqa_fwd_varlen.py --batch 2 --heads 16 --groups 4 --q_seqlen 512 --k_seqlen 512 --dim 128
example_gqa_sink_fwd_varlen.py --batch 2 --heads 16 --groups 4 --q_seqlen 512 --k_seqlen 512 --dim 128
example_mha_fwd_varlen.py --batch 2 --heads 16 --seq_len 512 --dim 128
example_gqa_decode_varlen_logits.py --k_seqlen 2048
example_mla_decode_paged.py --batch 8 --h_q 64 --cache_seqlen 2048
example_mla_decode.py --batch 8 --heads 64 --kv_ctx 2048
example_mla_decode_kv_fp8.py --batch 8 --heads 64 --kv_ctx 2048
example_mha_fwd_bshd.py --batch 2 --heads 8 --seq_len 1024 --dim 128
example_gqa_fwd_bshd.py --batch 1 --heads 16 --seq_len 1024 --dim 128 --groups 4
example_mha_bwd_bshd.py --batch 2 --h 8 --n_ctx 512 --d_head 64
example_gemm_sp.py --m 2048 --n 2048 --k 2048
example_gemm_autotune.py --m 1024 --n 1024 --k 1024
sparse_attn_fwd_sm90.py --h 64 --n_ctx 256 --n_kv 2048 --topk 256
ARGS
cp tests/bench/CUDA/scripts_verify_cpu.sh "$S/go.sh"
git rev-parse HEAD > "$S/commit.txt"
echo "staged $(wc -l < "$S/scripts.txt") scripts and $(wc -l < "$S/tests.txt")" \
  "test files in $S ($(du -sh "$S" | cut -f1))"

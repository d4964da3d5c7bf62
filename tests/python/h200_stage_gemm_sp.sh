#!/bin/bash
# Stages the H200 check of T.gemm_sp (issues 12, 13, 15) for the device
# tool: run from a checkout's root after `ninja -C build tlc-build
# tlc_cuda`; the stage is an ignored folder (/build*/).
#   bash tests/python/h200_stage_gemm_sp.sh [STAGE]
# then, on the device (carry STAGE):
#   bash STAGE/go.sh
# go.sh runs the public example_gemm_sp.py unchanged (--cfg h20 and 4090,
# 4096^3: its own assert_close against torch's fp16 a @ b, and its timing),
# example_custom_compress.py (its compress kernel, with and without
# --use_cutlass_layout) and tests/python/cuda_gemm_sp.py (the example's
# kernel and gemm_sp.py's kernels against torch float64).
set -e
S=${1:-build-h200-gemmsp}
rm -rf "$S"
mkdir -p "$S/bin" "$S/lib" "$S/python" "$S/tests"
cp build/bin/tlc-build "$S/bin/" && strip "$S/bin/tlc-build"
cp build/lib/libtlc_cuda.so "$S/lib/"
cp -r python/tilelang python/tvm "$S/python/"
find "$S/python" -name __pycache__ -prune -exec rm -rf {} +
cp tests/python/gemm_sp.py tests/python/cuda_gemm_sp.py "$S/tests/"
cp /work/corpus/examples__gemm_sp__example_gemm_sp.py \
  "$S/tests/example_gemm_sp.py"
cp /work/corpus/examples__gemm_sp__example_custom_compress.py \
  "$S/tests/example_custom_compress.py"
cat > "$S/go.sh" <<'GO'
#!/bin/bash
S=$(cd "$(dirname "$0")" && pwd)
export TLC_BUILD=$S/bin/tlc-build TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so \
  PYTHONPATH=$S/python PATH=/usr/local/cuda/bin:$PATH \
  TLC_CACHE_DIR=${TLC_CACHE_DIR:-/tmp/tlc-cache-gemmsp}
nvidia-smi --query-gpu=name --format=csv,noheader
cd "$S/tests"
rc=0
for cfg in h20 4090; do
  echo "== example_gemm_sp.py --cfg $cfg --m 4096 --n 4096 --k 4096"
  timeout 300 python3 example_gemm_sp.py --cfg $cfg --m 4096 --n 4096 \
    --k 4096 || rc=1
done
for flag in "" --use_cutlass_layout; do
  echo "== example_custom_compress.py --m 4096 --n 4096 --k 4096 $flag"
  timeout 300 python3 example_custom_compress.py --m 4096 --n 4096 \
    --k 4096 $flag || rc=1
done
echo "== cuda_gemm_sp.py"
timeout 400 python3 cuda_gemm_sp.py || rc=1
echo "rc=$rc"
exit $rc
GO
chmod +x "$S/go.sh"
echo "staged $S ($(du -sh "$S" | cut -f1))"

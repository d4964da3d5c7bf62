#!/bin/bash
# Builds every example kernel the CUDA emitter lowers, at the benchmark
# sizes and at ragged verification sizes, into BUILD/gpu-kernels:
#   NAME.mlir (tlc-build --emit=tile), NAME.cu (tlc-translate),
#   NAME.cubin (nvcc sm_90a), NAME.launch (entry, threads, smem), and
#   timing.txt (DSL -> CUDA source, and -> cubin, per kernel, in ms).
# Usage: tests/bench/CUDA/build_kernels.sh BUILD_DIR TLC_BUILD_BINARY
set -u
build=${1:?build dir}
tlcbuild=${2:?tlc-build binary (for --emit=tile)}
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$build/gpu-kernels
mkdir -p "$out"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
translate=$build/bin/tlc-translate
[ -x "$translate" ] || translate=$build/bin/tlc-cuda-translate
: > "$out/timing.txt"
# name | example | -D bindings
configs=(
  "ew_ragged|elementwise_add|-D m=1000 -D n=1000"
  "ew_small|elementwise_add|-D m=33 -D n=129"
  "ew_bench|elementwise_add|-D m=16384 -D n=16384"
  "softmax_ragged|softmax|-D m=37 -D n=1000"
  "softmax_bench|softmax|-D m=4096 -D n=8192"
  "softmax_rows_ragged|softmax_rows|-D m=37 -D n=1000"
  "softmax_rows_b2_ragged|softmax_rows|-D m=37 -D n=1000 -D block_M=2 -D threads=128"
  "softmax_rows_bench|softmax_rows|-D m=4096 -D n=8192"
  "softmax_rows_16k_bench|softmax_rows|-D m=16384 -D n=8192"
  "softmax_rows_t512_bench|softmax_rows|-D m=4096 -D n=8192 -D threads=512"
  "softmax_rows_b2_bench|softmax_rows|-D m=4096 -D n=8192 -D block_M=2 -D threads=256"
  "rmsnorm_ragged|rms_norm|-D m=37 -D n=4096"
  "rmsnorm_t256_ragged|rms_norm|-D m=37 -D n=4096 -D threads=256"
  "rmsnorm_bench|rms_norm|-D m=8192 -D n=4096"
  "rmsnorm_t256_bench|rms_norm|-D m=8192 -D n=4096 -D threads=256"
  "rmsnorm_b2_bench|rms_norm|-D m=8192 -D n=4096 -D block_M=2"
  "layernorm_ragged|layer_norm|-D m=37 -D n=2048"
  "transpose_ragged|transpose|-D m=1000 -D n=520"
  "cumsum_ragged|cumsum|-D batch=1 -D seq_len=1000 -D heads=64"
  "quant_ragged|per_token_quant|-D m=37 -D n=7168"
  "gemm_ragged|gemm|-D m=1000 -D n=520 -D k=200"
  "gemm_4096|gemm|-D m=4096 -D n=4096 -D k=4096"
  "gemm_8192|gemm|-D m=8192 -D n=8192 -D k=8192"
  "gemm_bf16_ragged|gemm|-D m=1000 -D n=520 -D k=200 -D dtype=T.bfloat16"
  "gemm_bf16_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D dtype=T.bfloat16"
  "gemm_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D num_stages=4"
  "gemm_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D num_stages=4"
  "gemm_bf16_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D dtype=T.bfloat16 -D num_stages=4"
  "gemm_bf16_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D dtype=T.bfloat16 -D num_stages=4"
  "gemm_bf16_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D dtype=T.bfloat16"
  "gemm_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_K=64"
  "gemm_bf16_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_K=64 -D dtype=T.bfloat16"
  "gemm_bk64_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_K=64 -D num_stages=4"
  "gemm_bf16_bk64_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_K=64 -D num_stages=4 -D dtype=T.bfloat16"
  "gemm_t256_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D threads=256"
  "gemm_bf16_t256_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D threads=256 -D dtype=T.bfloat16"
  "gemm_t256_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D threads=256 -D block_K=64"
  "gemm_bf16_t256_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D threads=256 -D block_K=64 -D dtype=T.bfloat16"
  "gemm_n256_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256"
  "gemm_bf16_n256_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256 -D dtype=T.bfloat16"
  "gemm_n256_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256 -D num_stages=4"
  "gemm_bf16_n256_s4_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256 -D num_stages=4 -D dtype=T.bfloat16"
  "gemm_n256_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256 -D block_K=64"
  "gemm_bf16_n256_bk64_4096|gemm|-D m=4096 -D n=4096 -D k=4096 -D block_N=256 -D threads=256 -D block_K=64 -D dtype=T.bfloat16"
  "gemm_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_K=64"
  "gemm_bf16_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_K=64 -D dtype=T.bfloat16"
  "gemm_bk64_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_K=64 -D num_stages=4"
  "gemm_bf16_bk64_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_K=64 -D num_stages=4 -D dtype=T.bfloat16"
  "gemm_t256_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D threads=256"
  "gemm_bf16_t256_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D threads=256 -D dtype=T.bfloat16"
  "gemm_t256_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D threads=256 -D block_K=64"
  "gemm_bf16_t256_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D threads=256 -D block_K=64 -D dtype=T.bfloat16"
  "gemm_n256_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256"
  "gemm_bf16_n256_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256 -D dtype=T.bfloat16"
  "gemm_n256_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256 -D num_stages=4"
  "gemm_bf16_n256_s4_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256 -D num_stages=4 -D dtype=T.bfloat16"
  "gemm_n256_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256 -D block_K=64"
  "gemm_bf16_n256_bk64_8192|gemm|-D m=8192 -D n=8192 -D k=8192 -D block_N=256 -D threads=256 -D block_K=64 -D dtype=T.bfloat16"
  # flash attention: the examples' tiling (block_M=128, block_N=32,
  # threads=128, 2 stages) and others; -D overrides main()'s values.
  "fa_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
  "fa_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128"
  "fac_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128"
  "fac_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128"
  "fa_m128n128t256_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=2"
  "fa_m128n128t256_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=2"
  "fac_m128n128t256_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=2"
  "fac_m128n128t256_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=2"
  "fa_m128n128t256s1_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=1"
  "fa_m128n128t256s1_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=1"
  "fac_m128n128t256s1_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=1"
  "fac_m128n128t256s1_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=128 -D threads=256 -D num_stages=1"
  "fa_m128n64t256_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=64 -D threads=256 -D num_stages=2"
  "fa_m128n64t256_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=64 -D threads=256 -D num_stages=2"
  "fac_m128n64t256_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=64 -D threads=256 -D num_stages=2"
  "fac_m128n64t256_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=64 -D threads=256 -D num_stages=2"
  "fa_m128n64t128_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=64 -D threads=128 -D num_stages=2"
  "fa_m128n64t128_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=64 -D threads=128 -D num_stages=2"
  "fac_m128n64t128_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=128 -D block_N=64 -D threads=128 -D num_stages=2"
  "fac_m128n64t128_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=128 -D block_N=64 -D threads=128 -D num_stages=2"
  "fa_m64n64t128_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=64 -D block_N=64 -D threads=128 -D num_stages=2"
  "fa_m64n64t128_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=64 -D block_N=64 -D threads=128 -D num_stages=2"
  "fac_m64n64t128_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=64 -D block_N=64 -D threads=128 -D num_stages=2"
  "fac_m64n64t128_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=64 -D block_N=64 -D threads=128 -D num_stages=2"
  "fa_s1_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D num_stages=1"
  "fa_s1_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D num_stages=1"
  "fac_s1_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D num_stages=1"
  "fac_s1_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D num_stages=1"
  "fa_s3_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D num_stages=3"
  "fa_s3_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D num_stages=3"
  "fac_s3_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D num_stages=3"
  "fac_s3_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D num_stages=3"
  "fa_n16_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_N=16"
  "fa_n16_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_N=16"
  "fac_n16_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_N=16"
  "fac_n16_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_N=16"
  "fa_m256t256_ragged|flash_attention_fwd|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=256 -D threads=256"
  "fa_m256t256_bench|flash_attention_fwd|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=256 -D threads=256"
  "fac_m256t256_ragged|flash_attention_causal|-D batch=1 -D heads=2 -D seq_len=1000 -D dim=128 -D block_M=256 -D threads=256"
  "fac_m256t256_bench|flash_attention_causal|-D batch=8 -D heads=32 -D seq_len=4096 -D dim=128 -D block_M=256 -D threads=256"
)
for c in "${configs[@]}"; do
  IFS='|' read -r name ex defs <<< "$c"
  echo "$defs" > "$out/$name.defs"
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$tlcbuild" --emit=tile $defs "$root/examples/$ex.py" > "$out/$name.mlir" 2> "$out/$name.log" || { echo "$name: tlc-build failed"; continue; }
  "$translate" --tile-to-cuda "$out/$name.mlir" -o "$out/$name.cu" 2>> "$out/$name.log" || { echo "$name: emitter failed: $(head -c 300 "$out/$name.log")"; continue; }
  t1=$(date +%s%N)
  "$translate" --tile-to-cuda-sourcemap "$out/$name.mlir" 2>/dev/null | grep '^kernel ' > "$out/$name.launch"
  grep -o 'grid \[[0-9, ]*\] threads \[[0-9]*\]' "$out/$name.mlir" >> "$out/$name.launch"
  "$nvcc" -std=c++17 -O3 -lineinfo -I"$root/runtime/device/include" \
    -gencode=arch=compute_90a,code=sm_90a -cubin -Xptxas -v \
    -o "$out/$name.cubin" "$out/$name.cu" >> "$out/$name.log" 2>&1 || { echo "$name: nvcc failed"; continue; }
  t2=$(date +%s%N)
  echo "$name dsl_to_cuda_ms $(( (t1 - t0) / 1000000 )) dsl_to_cubin_ms $(( (t2 - t0) / 1000000 )) $(grep -o 'Used [0-9]* registers' "$out/$name.log" | head -1) $(grep -o '[0-9]* bytes spill stores' "$out/$name.log" | head -1)" | tee -a "$out/timing.txt"
done

# T.gemm of T.tfloat32 tensors and shared tiles with a float32 accumulator
# (test_tilelang_language_eager_jit's gemm_ptr with in_dtype tfloat32): a
# tfloat32 element is stored in 32 bits, as float32, and mma.sync.m16n8k8
# .tf32 reads those bits. The CUDA target refused the element type, and its
# layouts and shared-memory sizes took tfloat32 for MLIR's 19 bits. The CPU
# target is checked against NumPy (the operands' 13 low mantissa bits
# dropped); the CUDA code for sm_80 and sm_90a runs on the sim device
# against the CPU target, and nvcc builds it.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# Two stages of 64 x 32 four-byte elements before B_shared:
# CUDA: float *A_shared = reinterpret_cast<float *>(smem + 0);
# CUDA: float *B_shared = reinterpret_cast<float *>(smem + 16384);
# CUDA: tlc::cuda::mmaM16N8K8TF32F32(
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 6 --save %t/out > /dev/null
# RUN: %python %S/../Cpp/Inputs/gemm_dtypes_ref.py %t/out tf32 0 0 | FileCheck %s
# CHECK: tf32 model: ok
# CHECK: differs from f32: ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 6 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 6 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# SIM-NOT: FAIL
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --no-cache -o %t/nvcc %s | FileCheck %s --check-prefix=BUILT %}
# BUILT: wrote {{.*}}.cubin
import tilelang
import tilelang.language as T


@tilelang.jit
def matmul(M=128, N=64, K=96, block_M=64, block_N=64, block_K=32):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.tfloat32), B: T.Tensor((K, N), T.tfloat32),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), T.tfloat32)
            B_shared = T.alloc_shared((block_K, block_N), T.tfloat32)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main

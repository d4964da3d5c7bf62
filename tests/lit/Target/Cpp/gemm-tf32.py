# T.gemm of float32 A and B with a float32 accumulator, as TileLang's
# test_tilelang_kernel_gemm runs it: on CUDA mma.sync.m16n8k8 .tf32 (the
# f32 bits go to the tensor cores unchanged, which drop their 13 low
# mantissa bits); the CPU target models that. Ragged M, N and K, every
# transpose of A and B; checked against NumPy (Inputs/gemm_dtypes_ref.py).
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/nn %s -DtA=False -DtB=False
# RUN: tlc-run %t/nn --save %t/nn-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/nn-out tf32 0 0 | FileCheck %s
# RUN: tlc-build --target=cpu -o %t/tt %s -DtA=True -DtB=True
# RUN: tlc-run %t/tt --save %t/tt-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/tt-out tf32 1 1 | FileCheck %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s -DtA=True -DtB=False | FileCheck %s --check-prefix=CUDA
# CHECK: tf32 model: ok
# CHECK: differs from f32: ok
# CHECK: shape: (100, 72)
# CPP: A and B read as tf32
# CPP: tlc::cpu::gemm<float>({{.*}}, /*tf32=*/true);
# CUDA: tlc::cuda::bitCast<uint32_t>(
# CUDA: tlc::cuda::mmaM16N8K8TF32F32(

import tilelang
import tilelang.language as T


@tilelang.jit
def matmul(M, N, K, block_M=64, block_N=64, block_K=32, tA=False, tB=True,
           in_dtype="float32", out_dtype="float32", accum_dtype="float32",
           num_stages=2, threads=128):
    trans_A, trans_B = tA, tB
    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_shared_shape = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shared_shape = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=threads) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, trans_A, trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


matmul(100, 72, 90)

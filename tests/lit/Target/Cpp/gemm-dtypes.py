# T.gemm over the operand / accumulator / output dtypes of TileLang's
# test_tilelang_kernel_gemm: f64 (CUDA: mma.sync.m8n8k4 .f64), int8 and
# uint8 with int32 accumulators (m16n8k32), f16 accumulated in f16
# (m16n8k16 .f16.f16 on sm_80, wgmma .f16.f16.f16 on sm_90a: the CPU
# target rounds the f16 accumulator after every 16 k, where the GPU's
# instructions do),
# bf16 accumulated in f32 and stored as bf16. Ragged
# M, N and K; the CPU target's results against NumPy
# (Inputs/gemm_dtypes_ref.py). The sim device runs the CUDA builds of the
# same program against the CPU target (tests/sim/run_sim.py --breadth).
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/f64 %s -Din_dtype=float64 -Daccum_dtype=float64 -Dout_dtype=float64 -DtA=True -DtB=False
# RUN: tlc-run %t/f64 --save %t/f64-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/f64-out f64 1 0 | FileCheck %s --check-prefix=F64
# RUN: tlc-build --target=cpu -o %t/i8 %s -Din_dtype=int8 -Daccum_dtype=int32 -Dout_dtype=int32
# RUN: tlc-run %t/i8 --save %t/i8-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/i8-out int 0 1 | FileCheck %s --check-prefix=INT
# RUN: tlc-build --target=cpu -o %t/u8 %s -Din_dtype=uint8 -Daccum_dtype=int32 -Dout_dtype=int32
# RUN: tlc-run %t/u8 --save %t/u8-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/u8-out int 0 1 | FileCheck %s --check-prefix=INT
# RUN: tlc-build --target=cpu -o %t/h %s -Din_dtype=float16 -Daccum_dtype=float16 -Dout_dtype=float16
# RUN: tlc-run %t/h --save %t/h-out
# RUN: %python %S/Inputs/gemm_dtypes_ref.py %t/h-out f16 0 1 16 | FileCheck %s --check-prefix=F16
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s -Din_dtype=float64 -Daccum_dtype=float64 -Dout_dtype=float64 | FileCheck %s --check-prefix=CUDA-F64
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s -Din_dtype=uint8 -Daccum_dtype=int32 -Dout_dtype=int32 | FileCheck %s --check-prefix=CUDA-U8
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s -Din_dtype=float16 -Daccum_dtype=float16 -Dout_dtype=float16 | FileCheck %s --check-prefix=CUDA-F16
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s -Din_dtype=float16 -Daccum_dtype=float16 -Dout_dtype=float16 | FileCheck %s --check-prefix=SM90-F16
# F64: f64: ok
# F64: shape: (100, 72)
# INT: int: ok
# F16: f16: ok
# CUDA-F64: double aFrag{{[0-9]*}}[2][2];
# CUDA-F64: tlc::cuda::mmaM16N8K4F64(
# CUDA-U8: tlc::cuda::mmaM16N8K32U8S32(
# CUDA-F16: tlc::cuda::mmaM16N8K16F16Acc(
# SM90-F16: tlc::cuda::wgmmaM64N{{[0-9]+}}K16F16F16<

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


matmul(100, 72, 160, in_dtype="float64", out_dtype="float64",
       accum_dtype="float64")

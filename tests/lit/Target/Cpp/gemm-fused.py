# T.gemm on the CPU target with f16 / bf16 operands and a float32
# accumulator: the micro-kernel fuses multiply and add only where every
# product is exact in float (tlc_device/cpu/gemm.h, productsExact), so C is
# the loop nest `acc = acc + a * b` (k in order, product and sum each
# rounded) bit for bit. Checked against NumPy's float32 loop
# (Inputs/gemm_fused_check.py). `tiny` builds bf16 operands whose second
# product, 2^-144 * (1 + 2^-7), is below FLT_MIN: rounded alone it is
# 2^-144, and 2^-120 + 2^-144 is a tie that rounds to 2^-120, while a fused
# multiply-add would round 2^-120 + 2^-144 * (1 + 2^-7) up; the kernel must
# keep the separate product there.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/h %s -Dkind=half
# RUN: tlc-run %t/h --save %t/h-out
# RUN: %python %S/Inputs/gemm_fused_check.py %t/h-out half | FileCheck %s --check-prefix=HALF
# RUN: tlc-build --target=cpu -o %t/b %s -Dkind=bf16
# RUN: tlc-run %t/b --save %t/b-out
# RUN: %python %S/Inputs/gemm_fused_check.py %t/b-out bf16 | FileCheck %s --check-prefix=BF16
# RUN: tlc-build --target=cpu -o %t/t %s -Dkind=tiny
# RUN: tlc-run %t/t --save %t/t-out
# RUN: %python %S/Inputs/gemm_fused_check.py %t/t-out tiny | FileCheck %s --check-prefix=TINY
# HALF: half: ok (70 x 72)
# BF16: bf16: ok (70 x 72)
# TINY: tiny: ok (70 x 72)

import tilelang
import tilelang.language as T


@tilelang.jit
def matmul(M, N, K, kind, block_M=32, block_N=64, block_K=32):
    dtype = "float16" if kind == "half" else "bfloat16"

    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), B: T.Tensor((K, N), "float32"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                if kind == "tiny":
                    # A's row: 2^-60, 2^-72 (1 + 2^-7), 0 ...; B's column:
                    # 2^-60, 2^-72, 0 ...
                    for i, k in T.Parallel(block_M, block_K):
                        A_shared[i, k] = T.if_then_else(
                            ko * block_K + k == 0, T.cast(2.0**-60, dtype),
                            T.if_then_else(ko * block_K + k == 1,
                                           T.cast(2.0**-72 * (1 + 2.0**-7), dtype),
                                           T.cast(0, dtype)))
                    for k, j in T.Parallel(block_K, block_N):
                        B_shared[k, j] = T.if_then_else(
                            ko * block_K + k == 0, T.cast(2.0**-60, dtype),
                            T.if_then_else(ko * block_K + k == 1,
                                           T.cast(2.0**-72, dtype),
                                           T.cast(0, dtype)))
                else:
                    T.copy(A[by * block_M, ko * block_K], A_shared)
                    T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


matmul(70, 72, 90, "half")

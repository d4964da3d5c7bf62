# A fragment read a group of T.Parallel iterations at a time (`Bq_frag[i,
# j // 2]`, two 4-bit values to a byte) by a loop whose layout a gemm
# operand fixes (`B_frag`, wgmma.A or mma.A): the copy into `Bq_frag` does
# not choose its layout first; the loop gives it one in which each byte
# lives with the thread that unpacks both of its values (TileLang's
# dequantising GEMMs, example_dequant_gemm_fp4_hopper and _w4a8, which were
# a false "layout conflict on 'B_local'"). The CUDA printer still reads
# such a loop's bytes through the exchange area (a remark says so). The CPU
# build against a Python oracle, the CUDA code on the sim device against
# the CPU build.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: tlc-build --check --target=cuda:sm_80 %s 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# DIAG-NOT: {{error|warning}}
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s --check-prefix=CUDA
# CUDA: wgmma
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/packed_gemm_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: packed-gemm ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T


@tilelang.jit
def dequant_gemm(M=64, N=64, K=64, block_K=32):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), Bq: T.Tensor((N, K // 2), T.uint8),
             C: T.Tensor((N, M), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, block_K), T.float16)
            Bq_shared = T.alloc_shared((N, block_K // 2), T.uint8)
            Bq_frag = T.alloc_fragment((N, block_K // 2), T.uint8)
            B_frag = T.alloc_fragment((N, block_K), T.float16)
            C_frag = T.alloc_fragment((N, M), T.float32)
            T.clear(C_frag)
            for k in T.Pipelined(K // block_K, num_stages=1):
                T.copy(A[0, k * block_K], A_shared)
                T.copy(Bq[0, k * block_K // 2], Bq_shared)
                T.copy(Bq_shared, Bq_frag)
                for i, j in T.Parallel(N, block_K):
                    nibble = (Bq_frag[i, j // 2] >> T.Cast(T.uint8, (j % 2) * 4)) & T.uint8(15)
                    B_frag[i, j] = T.Cast(T.float16, T.Cast(T.int32, nibble) - 8)
                T.gemm(B_frag, A_shared, C_frag, transpose_B=True)
            T.copy(C_frag, C)

    return main


dequant_gemm()

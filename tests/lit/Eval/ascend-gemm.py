# TileLang's Ascend GEMM forms (examples/ascend's gemm and split-K gemm):
# T.gemm of L1 (or L0A / L0B) operands into an L0C accumulator, and
# `unit_flag_ctrl=` on that gemm and on the copy out of L0C (run-time
# T.Select included). --check analyses them without a diagnostic; building
# stays refused once per kernel, at its first Ascend-only name.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s --check-prefix=BUILD
# BUILD: ascend-gemm.py:[[@LINE+15]]:19: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.alloc_l0c, TileLang's Ascend back end)
# BUILD: ascend-gemm.py:[[@LINE+36]]:20: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.alloc_l0a,
# BUILD-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def cube_gemm(M=512, N=512, K=512, tile=128, tk=64):
    k_tiles = K // tk

    @T.prim_func
    def main(X: T.Tensor((M, K), T.bfloat16), W: T.Tensor((N, K), T.bfloat16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, tile) * T.ceildiv(N, tile)) as bx:
            res = T.alloc_l0c((tile, tile), T.float32)
            x_l1 = T.alloc_l1((tile, tk), T.bfloat16)
            w_l1 = T.alloc_l1((tile, tk), T.bfloat16)
            m = bx // (N // tile)
            n = bx % (N // tile)
            for kt in T.Pipelined(k_tiles, num_stages=2):
                T.copy(X[m * tile:(m + 1) * tile, kt * tk:(kt + 1) * tk], x_l1)
                T.copy(W[n * tile:(n + 1) * tile, kt * tk:(kt + 1) * tk], w_l1)
                T.gemm(x_l1, w_l1, res, transpose_B=True, clear_accum=(kt == 0),
                       unit_flag_ctrl=T.Select(kt == k_tiles - 1, 3, 2))
            T.copy(res, C[m * tile, n * tile], unit_flag_ctrl=3)

    return main


@tilelang.jit
def cube_gemm_l0(M=128, N=128, K=128):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1) as bx:
            a_l0 = T.alloc_l0a((M, K), T.float16)
            b_l0 = T.alloc_l0b((K, N), T.float16)
            acc = T.alloc_l0c((M, N), T.float32)
            T.copy(A, a_l0)
            T.copy(B, b_l0)
            T.gemm(a_l0, b_l0, acc, clear_accum=True)
            T.copy(acc, C)

    return main


cube_gemm()
cube_gemm_l0()

"""Kernel factories that several tests of the package use (not a test).

Undecorated, so that each test applies ``tilelang.jit`` with its own target
and options (``scale_add_cpu = tilelang.jit(out_idx=[-1])(scale_add)``);
tlc builds them from this file's source, as TileLang builds a factory
imported from another module.

* :func:`scale_add`: ``C = A * alpha + B`` over rows of ``block_M`` (a float
  scalar parameter, a grid over a possibly symbolic ``M``);
* :func:`matmul`: the tiled, pipelined GEMM of TileLang's quickstart
  (shared-memory tiles, a fragment accumulator, ``T.gemm``).
"""

import tilelang.language as T


def scale_add(M, N, block_M=32, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype),
             alpha: T.float32, C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                C[bx * block_M + i, j] = A[bx * block_M + i, j] * alpha + \
                    B[bx * block_M + i, j]
    return main


def matmul(M, N, K, block_M=128, block_N=128, block_K=32, dtype="float16",
           accum_dtype="float", threads=128, num_stages=3):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype),
             C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K),
                                 num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main

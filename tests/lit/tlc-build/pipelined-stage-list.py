# T.Pipelined with `order` and `stage` but no num_stages: the stage list
# says how many stages there are (here 2), as TileLang plans it; the
# loop is multi-buffered and builds.
# RUN: tlc-build --check %s
# RUN: tlc-build --emit=lowered %s | FileCheck %s
# RUN: tlc-build --emit=cuda %s | FileCheck %s --check-prefix=CUDA

# CHECK: tile.pipelined {{.*}} stages 2 order [0, 1, 2] stage [0, 0, 1] attributes {tile.stages = 2 : i64{{(, tile.tma_barriers = [0-9]+ : i64)?(, tile.ws_empty_barriers = [0-9]+ : i64)?}}}
# CUDA: T.Pipelined (num_stages = 2: warp-specialised, the producer warpgroup loads 2 stages by TMA; full and empty mbarriers)

import tilelang
import tilelang.language as T


@tilelang.jit
def matmul(M, N, K, block_M=64, block_N=64, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "float16")
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), order=[0, 1, 2], stage=[0, 0, 1]):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


matmul(256, 256, 256)

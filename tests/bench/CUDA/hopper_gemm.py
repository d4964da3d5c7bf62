# GEMM C = A @ B (NN, B stored [K, N]) or C = A @ B^T (TN, transpose_B:
# B stored [N, K]), f16/bf16 in, f32 accumulator, f16/bf16 out: the kernel
# tests/bench/CUDA/hopper_gemm_bench.py times next to cuBLAS on the H200
# (docs/perf/hopper.md). Tiles, pipeline depth and the rasterisation panel
# (T.use_swizzle) are factory parameters,
# bound with tlc-build -D.

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M=128, block_N=256, block_K=64, num_stages=3, threads=256, panel=10,
           trans_B=False, dtype=T.float16, accum_dtype=T.float32):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor(B_shape, dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared(B_tile, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.use_swizzle(panel_size=panel, enable=True)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, ko * block_K], B_shared)
                else:
                    T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main

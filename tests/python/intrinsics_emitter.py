# A GEMM written with tilelang.intrinsics' TensorCoreIntrinEmitter, as the
# public intrinsics examples write it, through the package on the CPU
# target: float16 in, float32 accumulators (random inputs, against torch's
# float32 product) and int8 in, int32 accumulators (exact); the older
# examples' form, a T.thread_binding variable passed as thread_binding= to
# ldmatrix_a/b and stmatrix (example_gemm_intrinsics.py), too.

import sys

import tilelang
import tilelang.language as T
import torch
from tilelang.intrinsics import make_mma_swizzle_layout
from tilelang.intrinsics.mma_macro_generator import TensorCoreIntrinEmitter


@tilelang.jit(out_idx=[2], target="cpu")
def emitter_gemm(M, N, K, in_dtype, accum_dtype, explicit_binding=False):
    block_row_warps, block_col_warps = 2, 2
    warp_row_tiles, warp_col_tiles = 32, 32
    chunk = 32 if in_dtype == "float16" else 64
    block_M = block_row_warps * warp_row_tiles
    block_N = block_col_warps * warp_col_tiles
    mma_emitter = TensorCoreIntrinEmitter(
        a_dtype=in_dtype,
        b_dtype=in_dtype,
        accum_dtype=accum_dtype,
        a_transposed=False,
        b_transposed=True,
        block_row_warps=block_row_warps,
        block_col_warps=block_col_warps,
        warp_row_tiles=warp_row_tiles,
        warp_col_tiles=warp_col_tiles,
        chunk=chunk,
    )
    warp_rows, warp_cols = mma_emitter.warp_rows, mma_emitter.warp_cols

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((N, K), in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, chunk), in_dtype)
            B_shared = T.alloc_shared((block_N, chunk), in_dtype)
            C_shared = T.alloc_shared((block_M // 16, block_N // 16, 16, 16), accum_dtype)
            A_local = T.alloc_local((warp_rows * mma_emitter.local_size_a), in_dtype)
            B_local = T.alloc_local((warp_cols * mma_emitter.local_size_b), in_dtype)
            C_local = T.alloc_local((warp_rows * warp_cols * mma_emitter.local_size_out),
                                    accum_dtype)
            T.annotate_layout({
                A_shared: make_mma_swizzle_layout(A_shared),
                B_shared: make_mma_swizzle_layout(B_shared),
            })
            tx = T.thread_binding(0, 128, "threadIdx.x") if explicit_binding else None
            T.clear(C_local)
            for ko in T.Pipelined(K // chunk, num_stages=2):
                for i, k in T.Parallel(block_M, chunk):
                    A_shared[i, k] = A[by * block_M + i, ko * chunk + k]
                for j, k in T.Parallel(block_N, chunk):
                    B_shared[j, k] = B[bx * block_N + j, ko * chunk + k]
                for ki in T.serial(chunk // mma_emitter.micro_size_k):
                    if explicit_binding:
                        mma_emitter.ldmatrix_a(A_local, A_shared, ki, thread_binding=tx)
                        mma_emitter.ldmatrix_b(B_local, B_shared, ki, thread_binding=tx)
                    else:
                        mma_emitter.ldmatrix_a(A_local, A_shared, ki)
                        mma_emitter.ldmatrix_b(B_local, B_shared, ki)
                    mma_emitter.mma(A_local, B_local, C_local)
            if explicit_binding:
                mma_emitter.stmatrix(C_local, C_shared, thread_binding=tx)
            else:
                mma_emitter.stmatrix(C_local, C_shared)
            for i, j in T.Parallel(block_M, block_N):
                C[by * block_M + i, bx * block_N + j] = C_shared[i // 16, j // 16, i % 16, j % 16]

    return main


def main():
    torch.manual_seed(0)
    M, N, K = 128, 64, 96
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(N, K, dtype=torch.float16)
    c = emitter_gemm(M, N, K, "float16", "float32")(a, b)
    torch.testing.assert_close(c, a.float() @ b.float().T, rtol=1e-3, atol=1e-3)
    c = emitter_gemm(M, N, K, "float16", "float32", explicit_binding=True)(a, b)
    torch.testing.assert_close(c, a.float() @ b.float().T, rtol=1e-3, atol=1e-3)
    K = 128
    a8 = torch.randint(-128, 128, (M, K), dtype=torch.int8)
    b8 = torch.randint(-128, 128, (N, K), dtype=torch.int8)
    c8 = emitter_gemm(M, N, K, "int8", "int32")(a8, b8)
    assert c8.dtype == torch.int32
    assert torch.equal(c8.long(), a8.long() @ b8.long().T)
    print("intrinsics_emitter: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Split-K GEMM: C += A @ B with A (M, K), B (K, N) in float16 and a float32
# output C that the caller zero-initialises.
#
# Eager kernel without a return: C is a parameter written in place. The grid
# has a third dimension of split_k blocks; block bz reduces its own
# block_K-aligned range of K tiles and adds the partial tile to C with an
# element-wise T.atomic_add. Unaligned K is handled by the zero padding of
# out-of-range tiles.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def matmul_splitk(A, B, C, block_M: int = 128, block_N: int = 128, block_K: int = 32, split_k: int = 4, threads: int = 128):
    M, N, K = T.const("M, N, K")
    dtype = T.float16
    accum_dtype = T.float32

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C: T.Tensor((M, N), accum_dtype)

    k_tiles_per_split = T.ceildiv(T.ceildiv(K, block_K), split_k)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=threads) as (bx, by, bz):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

        T.clear(C_local)
        for ko in T.Pipelined(k_tiles_per_split, num_stages=0):
            k_tile = bz * k_tiles_per_split + ko
            T.copy(A[by * block_M, k_tile * block_K], A_shared)
            T.copy(B[k_tile * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)

        for i, j in T.Parallel(block_M, block_N):
            T.atomic_add(C[by * block_M + i, bx * block_N + j], C_local[i, j])


def main():
    parser = argparse.ArgumentParser(description="split-K GEMM with atomic_add")
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--k", type=int, default=8192)
    parser.add_argument("--split_k", type=int, default=4)
    args = parser.parse_args()

    a = torch.randn(args.m, args.k, dtype=torch.float16, device="cuda")
    b = torch.randn(args.k, args.n, dtype=torch.float16, device="cuda")
    c = torch.zeros(args.m, args.n, dtype=torch.float32, device="cuda")

    matmul_splitk(a, b, c, split_k=args.split_k)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-2, atol=1e-2)
    print("gemm_splitk: all checks passed")


if __name__ == "__main__":
    main()

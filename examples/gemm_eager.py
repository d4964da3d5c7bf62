# Fused GEMM + ReLU: C = relu(A @ B^T) with A (M, K) and B (N, K) in float16
# (B stored row-major as N x K, the layout of a linear layer's weight).
#
# Eager @tilelang.jit kernel: M, N, K are T.const symbols bound from the
# argument shapes, C is declared with T.empty and returned. The GEMM uses
# transpose_B=True; the ReLU epilogue runs on the float32 accumulator in a
# T.Parallel loop before the tile is stored. .compile(...) builds a kernel
# for named sizes without running it.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def linear_relu(A, B, block_M: int = 128, block_N: int = 128, block_K: int = 64, num_stages: int = 3, threads: int = 128):
    M, N, K = T.const("M, N, K")
    dtype = T.float16
    accum_dtype = T.float32

    A: T.Tensor((M, K), dtype)
    B: T.Tensor((N, K), dtype)
    C = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_N, block_K), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

        T.clear(C_local)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
            T.copy(A[by * block_M, k * block_K], A_shared)
            T.copy(B[bx * block_N, k * block_K], B_shared)
            T.gemm(A_shared, B_shared, C_local, transpose_B=True)

        for i, j in T.Parallel(block_M, block_N):
            C_local[i, j] = T.max(C_local[i, j], 0)
        T.copy(C_local, C[by * block_M, bx * block_N])

    return C


def ref_program(a, b):
    return torch.relu(a.float() @ b.float().T).to(a.dtype)


def main():
    parser = argparse.ArgumentParser(description="GEMM + ReLU (eager)")
    parser.add_argument("--m", type=int, default=1024)
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--k", type=int, default=1024)
    args = parser.parse_args()

    kernel = linear_relu.compile(M=args.m, N=args.n, K=args.k, block_M=128, block_N=128, block_K=64)

    a = torch.randn(args.m, args.k, dtype=torch.float16, device="cuda")
    b = torch.randn(args.n, args.k, dtype=torch.float16, device="cuda")
    c = kernel(a, b)
    torch.testing.assert_close(c, ref_program(a, b), rtol=1e-2, atol=1e-2)
    print("gemm_eager: all checks passed")
    print(kernel.get_kernel_source()[:200])


if __name__ == "__main__":
    main()

# Elementwise addition C = A + B of two 2-D tensors.
#
# Eager @tilelang.jit kernel: the sizes M and N are T.const symbols that are
# specialised from the shapes of the arguments, the output is declared with
# T.empty and returned. Each block stages a block_M x block_N tile of both
# inputs in shared memory and adds them in a register fragment.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def elementwise_add(A, B, block_M: int = 32, block_N: int = 128, threads: int = 128, dtype: T.dtype = T.float32):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), dtype)
    B: T.Tensor((M, N), dtype)
    C = T.empty((M, N), dtype)

    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_N), dtype)
        B_shared = T.alloc_shared((block_M, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), dtype)

        T.copy(A[by * block_M, bx * block_N], A_shared)
        T.copy(B[by * block_M, bx * block_N], B_shared)
        for i, j in T.Parallel(block_M, block_N):
            C_local[i, j] = A_shared[i, j] + B_shared[i, j]
        T.copy(C_local, C[by * block_M, bx * block_N])

    return C


def ref_program(A, B):
    return A + B


def main():
    parser = argparse.ArgumentParser(description="elementwise add")
    parser.add_argument("--m", type=int, default=1024, help="rows")
    parser.add_argument("--n", type=int, default=1024, help="columns")
    parser.add_argument("--block_m", type=int, default=32)
    parser.add_argument("--block_n", type=int, default=128)
    args = parser.parse_args()

    a = torch.randn(args.m, args.n, dtype=torch.float32, device="cuda")
    b = torch.randn(args.m, args.n, dtype=torch.float32, device="cuda")

    c = elementwise_add(a, b, block_M=args.block_m, block_N=args.block_n)
    torch.testing.assert_close(c, ref_program(a, b), rtol=1e-5, atol=1e-5)
    print("elementwise_add: all checks passed")

    kernel = elementwise_add.compile(M=args.m, N=args.n, block_M=args.block_m, block_N=args.block_n)
    latency = kernel.get_profiler().do_bench()
    print(f"latency: {latency:.4f} ms")


if __name__ == "__main__":
    main()

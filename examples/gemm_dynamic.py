# GEMM with dynamic shapes: C = op(A) @ op(B) where op transposes an operand
# when trans_A / trans_B is set; M, N and K are runtime sizes.
#
# Lazy factory whose sizes are T.dynamic symbols: one compiled kernel serves
# every (m, n, k), read from the tensor shapes at launch. Operand shapes are
# chosen with Python ternaries, and the `if trans_A:` branches inside the
# pipelined loop are folded at trace time because trans_A is a Python bool.
# T.gemm receives the transpose flags positionally.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def matmul_dynamic(block_M=128, block_N=128, block_K=32, num_stages=3, threads=128, trans_A=False, trans_B=False,
                   in_dtype=T.float16, out_dtype=T.float16, accum_dtype=T.float32):
    M = T.dynamic("m")
    N = T.dynamic("n")
    K = T.dynamic("k")

    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_shared_shape = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shared_shape = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(
        A: T.Tensor(A_shape, in_dtype),
        B: T.Tensor(B_shape, in_dtype),
        C: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, in_dtype)
            B_shared = T.alloc_shared(B_shared_shape, in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, trans_A, trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(a, b, trans_A, trans_B):
    a = a.T if trans_A else a
    b = b.T if trans_B else b
    return (a.float() @ b.float()).to(torch.float16)


def main():
    parser = argparse.ArgumentParser(description="dynamic-shape GEMM")
    parser.add_argument("--m", type=int, default=1000)
    parser.add_argument("--n", type=int, default=1536)
    parser.add_argument("--k", type=int, default=777)
    parser.add_argument("--trans_a", action="store_true")
    parser.add_argument("--trans_b", action="store_true")
    args = parser.parse_args()

    kernel = matmul_dynamic(trans_A=args.trans_a, trans_B=args.trans_b)
    for m, n, k in [(args.m, args.n, args.k), (256, 512, 128)]:
        a = torch.randn((k, m) if args.trans_a else (m, k), dtype=torch.float16, device="cuda")
        b = torch.randn((n, k) if args.trans_b else (k, n), dtype=torch.float16, device="cuda")
        c = kernel(a, b)
        torch.testing.assert_close(c, ref_program(a, b, args.trans_a, args.trans_b), rtol=1e-2, atol=1e-2)
    print("gemm_dynamic: all checks passed")


if __name__ == "__main__":
    main()

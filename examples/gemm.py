# Matrix multiplication C = A @ B with A (M, K), B (K, N) in float16 and a
# float32 accumulator.
#
# Lazy factory: matmul(M, N, K, ...) returns a @T.prim_func; @tilelang.jit
# with out_idx=[-1] makes C an output allocated by the runtime. Each block
# computes a block_M x block_N tile of C: a software-pipelined loop over K
# stages A and B tiles in shared memory (num_stages buffers) and accumulates
# with T.gemm into a register fragment. T.use_swizzle rasterises the grid in
# panels for L2 reuse.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, block_M=128, block_N=128, block_K=32, num_stages=3, threads=128, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.use_swizzle(panel_size=10, enable=True)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(a, b):
    return (a.float() @ b.float()).to(a.dtype)


def main():
    parser = argparse.ArgumentParser(description="GEMM (lazy factory)")
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--k", type=int, default=4096)
    parser.add_argument("--num_stages", type=int, default=3)
    args = parser.parse_args()

    kernel = matmul(args.m, args.n, args.k, num_stages=args.num_stages)
    a = torch.randn(args.m, args.k, dtype=torch.float16, device="cuda")
    b = torch.randn(args.k, args.n, dtype=torch.float16, device="cuda")
    c = kernel(a, b)
    torch.testing.assert_close(c, ref_program(a, b), rtol=1e-2, atol=1e-2)
    print("gemm: all checks passed")

    profiler = kernel.get_profiler(tensor_supply_type=tilelang.TensorSupplyType.Normal)
    latency = profiler.do_bench()
    print(f"latency: {latency:.4f} ms, {2 * args.m * args.n * args.k / latency * 1e-9:.2f} TFLOPS")


if __name__ == "__main__":
    main()

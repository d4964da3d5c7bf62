# One autotuned GEMM, two tuners: `python3 cuda_tune_gemm_both.py` runs
# TileLang's @tilelang.autotune through the package (each configuration
# checked against a float32 torch matmul, then timed), and
# `tlc-build --target=cuda:sm_90a --autotune cuda_tune_gemm_both.py` tunes
# the same 16 configurations from the command line (each checked against
# the first configuration's output, then timed). Exit status 77 (skip)
# under Python without a CUDA device.

import itertools

import tilelang
import tilelang.language as T

SIZE = 4096


def gemm_configs():
    shapes = itertools.product([64, 128], [64, 128], [32, 64], [2, 3])
    return [dict(block_M=bm, block_N=bn, block_K=bk, num_stages=st) for bm, bn, bk, st in shapes]


def reference(a, b):
    return (a.float() @ b.float()).to(a.dtype)


@tilelang.autotune(configs=gemm_configs(), warmup=10, rep=40, ref_prog=reference)
@tilelang.jit(out_idx=[-1])
def tuned_gemm(M, N, K, block_M=128, block_N=128, block_K=32, num_stages=3, threads=128):
    dtype = T.float16

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            a_tile = T.alloc_shared((block_M, block_K), dtype)
            b_tile = T.alloc_shared((block_K, block_N), dtype)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for kk in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, kk * block_K], a_tile)
                T.copy(B[kk * block_K, bx * block_N], b_tile)
                T.gemm(a_tile, b_tile, acc)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


if __name__ == "__main__":
    import sys

    import torch

    if not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        sys.exit(77)
    kernel = tuned_gemm(SIZE, SIZE, SIZE)
    a = torch.randn(SIZE, SIZE, dtype=torch.float16, device="cuda")
    b = torch.randn(SIZE, SIZE, dtype=torch.float16, device="cuda")
    torch.testing.assert_close(kernel(a, b), reference(a, b), rtol=1e-2, atol=1e-2)
    print(f"python autotune: best {kernel.config}: {kernel.latency:.4f} ms")

# Matrix transpose Y = X^T for X (M, N) in float32.
#
# "@T.prim_func + tilelang.compile" style. Each block reads a
# block_M x block_N tile of X into shared memory with coalesced rows, then
# writes the transposed block_N x block_M tile from a fragment indexed
# [j, i], so the stores to Y are coalesced too.

import argparse

import tilelang
import tilelang.language as T
import torch


def transpose_kernel(M, N, block_M=64, block_N=64, threads=128, dtype="float32"):
    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((N, M), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            tile = T.alloc_shared((block_M, block_N), dtype)
            tile_t = T.alloc_fragment((block_N, block_M), dtype)

            T.copy(X[by * block_M, bx * block_N], tile)
            for i, j in T.Parallel(block_N, block_M):
                tile_t[i, j] = tile[j, i]
            T.copy(tile_t, Y[bx * block_N, by * block_M])

    return main


def main():
    parser = argparse.ArgumentParser(description="transpose")
    parser.add_argument("--m", type=int, default=8192)
    parser.add_argument("--n", type=int, default=4096)
    args = parser.parse_args()

    kernel = tilelang.compile(transpose_kernel(args.m, args.n), out_idx=-1)
    x = torch.randn(args.m, args.n, dtype=torch.float32, device="cuda")
    y = kernel(x)
    torch.testing.assert_close(y, x.T.contiguous(), rtol=0, atol=0)
    print("transpose: all checks passed")

    profiler = kernel.get_profiler()
    latency = profiler.do_bench()
    print(f"latency: {latency:.4f} ms, {2 * args.m * args.n * 4 / latency * 1e-6:.1f} GB/s")


if __name__ == "__main__":
    main()

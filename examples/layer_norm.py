# LayerNorm Y = (X - mean) / sqrt(var + eps) * gamma + beta over the last
# dimension of an (M, N) half-precision matrix.
#
# "@T.prim_func + tilelang.compile" style: a plain Python function builds the
# prim_func for given sizes and the module compiles it with out_idx=[-1].
# Each block loads block_M whole rows into a float32 fragment, computes the
# mean and the (two-pass) variance with T.reduce_sum and applies the affine
# transform. Dtypes are given as strings here, as many programs do.

import argparse

import tilelang
import tilelang.language as T
import torch


def layer_norm_kernel(M, N, block_M=2, eps=1e-5, dtype="float16", accum_dtype="float32"):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), dtype),
        gamma: T.Tensor((N,), dtype),
        beta: T.Tensor((N,), dtype),
        Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), accum_dtype)
            centered_sq = T.alloc_fragment((block_M, N), accum_dtype)
            mean = T.alloc_fragment((block_M,), accum_dtype)
            rstd = T.alloc_fragment((block_M,), accum_dtype)

            T.copy(X[bx * block_M, 0], x)
            T.reduce_sum(x, mean, dim=1)
            for i in T.Parallel(block_M):
                mean[i] = mean[i] / N
            for i, j in T.Parallel(block_M, N):
                centered_sq[i, j] = (x[i, j] - mean[i]) * (x[i, j] - mean[i])
            T.reduce_sum(centered_sq, rstd, dim=1)
            for i in T.Parallel(block_M):
                rstd[i] = T.rsqrt(rstd[i] / N + eps)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = (x[i, j] - mean[i]) * rstd[i] * gamma[j] + beta[j]
            T.copy(x, Y[bx * block_M, 0])

    return main


def ref_program(x, gamma, beta, eps=1e-5):
    return torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), gamma.float(), beta.float(), eps).to(x.dtype)


def main():
    parser = argparse.ArgumentParser(description="LayerNorm")
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--eps", type=float, default=1e-5)
    args = parser.parse_args()

    func = layer_norm_kernel(args.m, args.n, eps=args.eps)
    kernel = tilelang.compile(func, out_idx=[-1], target="cuda")

    x = torch.randn(args.m, args.n, dtype=torch.float16, device="cuda")
    gamma = torch.randn(args.n, dtype=torch.float16, device="cuda")
    beta = torch.randn(args.n, dtype=torch.float16, device="cuda")
    y = kernel(x, gamma, beta)
    torch.testing.assert_close(y, ref_program(x, gamma, beta, args.eps), rtol=1e-2, atol=1e-2)
    print("layer_norm: all checks passed")


if __name__ == "__main__":
    main()

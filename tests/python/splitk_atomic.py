# Split-K GEMM: an eager kernel without a return that accumulates partial
# tiles into a float32 C with T.atomic_add (C is written in place), checked
# against a float32 torch matmul; K not a multiple of the split.

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(target="cpu")
def splitk_gemm(A, B, C, block_M: int = 32, block_N: int = 32, block_K: int = 32, split: int = 3):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    tiles_per_split = T.ceildiv(T.ceildiv(K, block_K), split)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split, threads=128) as (bx, by, bz):
        a_s = T.alloc_shared((block_M, block_K), T.float16)
        b_s = T.alloc_shared((block_K, block_N), T.float16)
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(acc)
        for t in T.Pipelined(tiles_per_split, num_stages=0):
            kt = bz * tiles_per_split + t
            T.copy(A[by * block_M, kt * block_K], a_s)
            T.copy(B[kt * block_K, bx * block_N], b_s)
            T.gemm(a_s, b_s, acc)
        for i, j in T.Parallel(block_M, block_N):
            T.atomic_add(C[by * block_M + i, bx * block_N + j], acc[i, j])


def main():
    torch.manual_seed(2)
    for (m, n, k, split) in [(64, 48, 200, 3), (50, 70, 96, 2)]:
        a = torch.randn(m, k, dtype=torch.float16)
        b = torch.randn(k, n, dtype=torch.float16)
        c = torch.zeros(m, n, dtype=torch.float32)
        assert splitk_gemm(a, b, c, split=split) is None
        torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
        # Accumulates into what is there (atomic adds, not stores).
        splitk_gemm(a, b, c, split=split)
        torch.testing.assert_close(c, 2 * (a.float() @ b.float()), rtol=1e-3, atol=2e-3)
    # C must be float32: it is written in place.
    try:
        splitk_gemm(a, b, torch.zeros(m, n, dtype=torch.float16))
    except TypeError as e:
        assert "float32" in str(e)
    else:
        raise AssertionError("a float16 C must be refused")
    # A non-contiguous C is accumulated into through a dense copy that is
    # written back into the caller's view.
    ct = torch.ones(n, m)
    splitk_gemm(a, b, ct.t())
    torch.testing.assert_close(ct, 1 + (a.float() @ b.float()).t(), rtol=1e-3, atol=1e-3)
    print("split-K atomic_add: all checks passed")


if __name__ == "__main__":
    main()

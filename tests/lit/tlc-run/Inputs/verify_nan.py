# verify-nan.test: a kernel whose fully masked rows compute 0/0 (NaN on
# every back end, as block-sparse attention does for a query block no key
# block is kept for), and one that leaves half its output unwritten.
import tilelang.language as T

M = 8
N = 32


@T.prim_func
def masked_mean(X: T.Tensor((M, N), T.float32), Keep: T.Tensor((M, N), T.bool),
                Y: T.Tensor((M,), T.float32)):
    with T.Kernel(1, threads=32):
        kept = T.alloc_fragment((M, N), T.float32)
        ones = T.alloc_fragment((M, N), T.float32)
        total = T.alloc_fragment((M,), T.float32)
        count = T.alloc_fragment((M,), T.float32)
        for i, j in T.Parallel(M, N):
            # Row 0 keeps nothing: its mean is 0/0.
            kept[i, j] = T.if_then_else(i > 0, T.if_then_else(Keep[i, j], X[i, j], 0.0), 0.0)
            ones[i, j] = T.if_then_else(i > 0, T.if_then_else(Keep[i, j], 1.0, 0.0), 0.0)
        T.reduce_sum(kept, total, dim=1)
        T.reduce_sum(ones, count, dim=1)
        for i in T.Parallel(M):
            Y[i] = total[i] / count[i]


@T.prim_func
def half_written(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
    with T.Kernel(1, threads=128):
        for i, j in T.Parallel(M // 2, N):
            Y[i, j] = X[i, j]

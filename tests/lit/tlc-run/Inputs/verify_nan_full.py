# verify-nan.test: `half_written` of verify_nan.py as a kernel that writes
# every row (the reference a half-writing kernel must fail against).
import tilelang.language as T

M = 8
N = 32


@T.prim_func
def half_written(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
    with T.Kernel(1, threads=128):
        for i, j in T.Parallel(M, N):
            Y[i, j] = X[i, j]

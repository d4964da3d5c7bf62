# A varlen kernel: batch b scales its rows cu[b]..cu[b+1] of X by b + 1;
# the total row count is a T.dynamic symbol in the shapes of X and Y.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_rows(batch, block=64):
    total = T.dynamic("total")

    @T.prim_func
    def main(X: T.Tensor((total, 32), "float32"), cu: T.Tensor((batch + 1,), "int32"),
             Y: T.Tensor((total, 32), "float32")):
        with T.Kernel(batch, 4, threads=128) as (b, bx):
            start = cu[b]
            end = cu[b + 1]
            for i, j in T.Parallel(block, 32):
                if start + bx * block + i < end:
                    Y[start + bx * block + i, j] = X[start + bx * block + i, j] * (b + 1)

    return main


scale_rows(3)

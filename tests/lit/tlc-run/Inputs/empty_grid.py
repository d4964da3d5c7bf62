# Kernels whose grid has an extent of 0 at run time (TileLang issue 1993):
# a dynamic token count of 0, and a literal T.Kernel(0). Each adds 1 to its
# (inout) tensor, so a launch that ran shows in the result.
import tilelang
import tilelang.language as T

num_tokens = T.dynamic("num_tokens")


@T.prim_func
def per_token(X: T.Tensor((num_tokens,), "float32")):
    with T.Kernel(num_tokens, threads=1) as pid:
        X[pid] = X[pid] + 1.0


@T.prim_func
def no_blocks(X: T.Tensor((4,), "float32")):
    with T.Kernel(0, 2, threads=1) as (bx, by):
        X[bx] = X[bx] + 1.0

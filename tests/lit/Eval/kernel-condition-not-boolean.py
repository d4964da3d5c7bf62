# RUN: tlc-build --verify-diagnostics %s
# An `if` or `assert` inside a kernel whose condition is a run-time value that
# is not a boolean (an int or float element, a product) is refused, as
# TileLang refuses it ("If condition must be a boolean expression"; older
# releases stopped at an internal check, tile-ai/tilelang#3009).
# Comparisons, boolean buffers and Python values known while tracing are
# conditions as usual.
import tilelang
import tilelang.language as T


@T.prim_func
def gated(Mask: T.Tensor((128,), T.int32), Flags: T.Tensor((128,), T.bool),
          X: T.Tensor((128,), T.float16), Y: T.Tensor((128,), T.float16)):
    with T.Kernel(1, threads=128):
        tx = T.get_thread_binding()
        # expected-error@+1 {{If condition must be a boolean expression, but got int32 (compare it, e.g. `... != 0`)}}
        if Mask[tx]:
            Y[tx] = X[tx]
        scaled = X[tx] * 2
        # expected-error@+1 {{If condition must be a boolean expression, but got float16}}
        if scaled:
            Y[tx] = scaled
        # expected-error@+1 {{Assert condition must be a boolean expression, but got int32}}
        assert Mask[tx], "mask must be set"
        # Valid conditions: a comparison, a bool element, a Python constant.
        if Mask[tx] != 0:
            Y[tx] = X[tx]
        if Flags[tx]:
            Y[tx] = X[tx] + 1
        if 3:
            Y[tx] = Y[tx] * 2
        assert Mask[tx] >= 0, "mask is a count"

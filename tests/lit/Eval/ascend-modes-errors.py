# RUN: tlc-build --verify-diagnostics %s
# TileLang's ValueErrors of T.set_hf32_mode (a mode other than None,
# "nearest_zero" or "nearest_even"; a bool too) and T.MixedKernel (a grid
# of more than one dimension, sids other than 1 or 2).
import tilelang
import tilelang.language as T


@tilelang.jit
def misuse(M=64):

    @T.prim_func
    def main(X: T.Tensor((M,), T.float32)):
        with T.Kernel(1) as bx:
            # expected-error@+1 {{hf32 mode must be None, 'nearest_zero', or 'nearest_even', got True}}
            T.set_hf32_mode(True)
            # expected-error@+1 {{hf32 mode must be None, 'nearest_zero', or 'nearest_even', got 'nearest'}}
            T.set_hf32_mode(mode="nearest")

    return main


@tilelang.jit
def grid2(M=64):

    @T.prim_func
    def main(X: T.Tensor((M,), T.float32)):
        # expected-error@+1 {{T.MixedKernel() only supports 1-D block grid. Got 2-D}}
        with T.MixedKernel(2, 2) as (bx, sid):
            pass

    return main


@tilelang.jit
def sids3(M=64):

    @T.prim_func
    def main(X: T.Tensor((M,), T.float32)):
        # expected-error@+1 {{T.MixedKernel() sids must be 1 or 2. Got 3}}
        with T.MixedKernel(2, sids=3) as (bx, sid):
            pass

    return main

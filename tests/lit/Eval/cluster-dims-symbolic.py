# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=hints -D cluster=2 --kernel=clustered %s | FileCheck %s
# cluster_dims from a factory's parameter: a factory no call site gives a
# value is analysed with a symbol there, and a symbol is no error (the
# launch is analysed without a cluster); a call with a value checks it
# (TileLang needs positive integers), and -D gives the default instance
# one.
# CHECK: "instance":"clustered(cluster=2)"
import tilelang
import tilelang.language as T


@tilelang.jit
def clustered(A, cluster):
    M = T.const("M")
    A: T.Tensor[[M], T.float32]
    with T.Kernel(8, threads=128, cluster_dims=cluster) as bx:
        A[bx] = 0.0
    return A


@tilelang.jit
def lazy_clustered(M, cluster=(2, 1, 1)):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32)):
        # expected-error@+1 {{cluster_dims must be positive integers, got 0}}
        with T.Kernel(8, threads=128, cluster_dims=cluster) as bx:
            A[bx] = 0.0

    return main


@tilelang.jit
def lazy_symbolic(M, cx):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32)):
        with T.Kernel(8, threads=128, cluster_dims=(cx, 1, 1)) as bx:
            A[bx] = 0.0

    return main


lazy_clustered(64, (0, 1, 1))

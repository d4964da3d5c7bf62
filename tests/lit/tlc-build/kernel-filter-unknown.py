# --kernel=NAME that names no kernel of the file (a typo, or the inner
# prim_func's name `main` rather than its factory's) is an error listing the
# kernels the file has. It used to analyse and build nothing, silently, with
# exit status 0.
# RUN: not tlc-build --target=cpu --check --kernel=main --no-source-lines %s 2>&1 | FileCheck %s -DNAME=main --implicit-check-not=error:
# RUN: not tlc-build --target=cpu --check --kernel=doubl --no-source-lines %s 2>&1 | FileCheck %s -DNAME=doubl --implicit-check-not=error:
# RUN: rm -rf %t && not tlc-build --target=cpu --kernel=main -o %t --no-source-lines %s 2>&1 | FileCheck %s -DNAME=main
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel=main --no-source-lines %s 2>&1 | FileCheck %s -DNAME=main
# Each of the file's kernels is a valid --kernel: a @tilelang.jit function,
# a plain factory and a module-level prim_func.
# RUN: tlc-build --target=cpu --check --kernel=double %s
# RUN: tlc-build --target=cpu --check --kernel=triple %s
# RUN: tlc-build --target=cpu --check --kernel=negate %s
# RUN: tlc-build --target=cpu --emit=cpp --kernel=negate %s | FileCheck %s --check-prefix=NEGATE

# CHECK: kernel-filter-unknown.py:1:1: error: --kernel=[[NAME]] names no kernel of this file; its kernels (the @tilelang.jit functions and prim_func factories): double, negate, triple{{$}}
# NEGATE: negate
import tilelang
import tilelang.language as T


@tilelang.jit
def double(M):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] * 2.0

    return main


def triple(M):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] * 3.0

    return main


@T.prim_func
def negate(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = -A[i]


double(512)
triple(256)

# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=FILE
# RUN: tlc-build --check -DM=100 -DK=50 %s 2>&1 | count 0
# A module-level call made with the file's own sizes is checked against the
# instance those sizes build; with -D bindings the instance takes other
# sizes while the module still makes its tensors from its constants, so the
# sizes of that call are not compared (the cpu examples run this way).
import tilelang
import tilelang.language as T
import torch

M, K = 256, 128


@tilelang.jit(out_idx=[1])
def double(M, K):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float32), B: T.Tensor((M, K), T.float32)):
        with T.Kernel(T.ceildiv(M, 32), threads=32) as bx:
            for i, j in T.Parallel(32, K):
                B[bx * 32 + i, j] = A[bx * 32 + i, j] * 2

    return main


kernel = double(M, K)
b = kernel(torch.randn(M, K))
# FILE: kernel-calls-defines.py:[[@LINE+1]]:12: error: ValueError: argument 'A' of kernel 'double' must have shape (256, 128), got (256, 64)
c = kernel(torch.randn(M, 64))

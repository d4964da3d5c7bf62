# Layout inference settles when two proposals for one buffer hold the same
# elements on every thread in a different register order: the row vectors
# `a` and `b` below are proposed "every row on every thread" both by their
# reductions and by the loop that updates them, and the two proposals used
# to replace each other forever (tlc-fuzz-eval found it: --check ran for
# minutes). The fewer registers win, in either order. The CPU target and
# the sim device (the CUDA code run on the host) against NumPy.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# HINTS: "name":"a","kind":"buffer","shape":[8],{{.*}}"layout":"parallel row · 8 regs/thread · rep 128"
# HINTS: "name":"b","kind":"buffer","shape":[8],{{.*}}"layout":"parallel row · 8 regs/thread · rep 128"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python %S/Inputs/row_stats_check.py %t/out | FileCheck %s
# CHECK: row_stats True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/row_stats_check.py %t/sim | FileCheck %s %}

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def row_stats(M=16, N=512, block_M=8):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), "float32")
            prod = T.alloc_fragment((block_M, N), "float32")
            a = T.alloc_fragment((block_M,), "float32")
            b = T.alloc_fragment((block_M,), "float32")
            T.copy(X[bx * block_M, 0], x)
            T.reduce_sum(x, a, dim=1)
            for i, j in T.Parallel(block_M, N):
                prod[i, j] = x[1, j] * x[i, j]
            T.reduce_sum(prod, b, dim=1)
            for i in T.Parallel(block_M):
                a[i] = a[i] * 0.5
                b[i] = b[i] - a[i] * a[i]
            for i, j in T.Parallel(block_M, N):
                Y[bx * block_M + i, j] = (x[i, j] - a[i]) * b[i]

    return main


row_stats()

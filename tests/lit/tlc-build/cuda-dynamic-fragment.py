# A fragment whose shape stays symbolic (nothing binds N) is refused with a
# diagnostic at its allocation before any layout is planned over it (this
# used to abort in the layout planner with std::bad_alloc).
# RUN: not tlc-build --target=cuda:sm_90a -o %t %s 2>&1 | FileCheck %s
# CHECK: cuda-dynamic-fragment.py:[[# @LINE + 14]]:18: error: fragments need static shapes on the CUDA target (bind the sizes with -D or a call site)
# RUN: tlc-build --target=cuda:sm_90a -D N=256 -o %t %s | FileCheck %s --check-prefix=BOUND
# BOUND: wrote {{.*}}row_scale

import tilelang
import tilelang.language as T


@tilelang.jit
def row_scale(X, block_M: int = 2):
    M, N = T.const("M, N")
    X: T.Tensor((M, N), T.float16)
    Y = T.empty((M, N), T.float16)
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x_frag = T.alloc_fragment((block_M, N), T.float16)
        T.copy(X[bx * block_M, 0], x_frag)
        for i, j in T.Parallel(block_M, N):
            x_frag[i, j] = x_frag[i, j] * 2
        T.copy(x_frag, Y[bx * block_M, 0])
    return Y

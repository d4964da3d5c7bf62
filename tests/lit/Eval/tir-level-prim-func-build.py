# A prim_func that launches no T.Kernel (TIR for TileLang's pass tests):
# --check accepts its tile ops with one warning (alloc-outside-kernel-tir.py),
# and building it is refused at the first one.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECK-ONLY
# CHECK-ONLY: tir-level-prim-func-build.py:[[# @LINE + 10]]:15: warning: T.Pipelined outside any T.Kernel
# CHECK-ONLY-NOT: error
# RUN: not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s
# CHECK: tir-level-prim-func-build.py:[[# @LINE + 7]]:15: error: cannot build this kernel: T.Pipelined in a prim_func that launches no T.Kernel (TIR-level code, which tlc does not analyse)
import tilelang
import tilelang.language as T


@T.prim_func
def before(A: T.Tensor((32,), "float32"), B: T.Tensor((32,), "float32")):
    for ko in T.Pipelined(32, num_stages=3):
        B[ko] = A[ko]

# A fragment bound to threads [0, 64) (Fragment.bind_thread_range) whose
# tile operations run under `tx >= 64`, on threads [64, 128): TileLang's
# loop partition would map the wrong threads; the GPU targets refuse it at
# the annotation, with an operation using it as a note. The same fragment
# bound to [64, 128) builds. (--check does not see it: thread ranges are
# the GPU targets' lowering.)
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s
# CHECK: fragment-bind-range-errors.py:[[# @LINE + 17]]:13: error: the fragment layout is bound to threads [0, 64) (bind_thread_range), but the tile operations using it run on threads [64, 128)
# CHECK: fragment-bind-range-errors.py:[[# @LINE + 18]]:17: note: an operation using it
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda -D begin=64 %s | FileCheck %s --check-prefix=GOOD
# GOOD: __global__
import tilelang
import tilelang.language as T
from tilelang.layout import Fragment


@tilelang.jit
def swapped(begin=0):
    @T.prim_func
    def main(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=128) as _:
            tx = T.get_thread_binding()
            F = T.alloc_fragment((64,), T.float32)
            lay = Fragment((64,), forward_thread_fn=lambda i: i).bind_thread_range(begin, 64)
            T.annotate_layout({F: lay})
            if tx >= 64:
                T.copy(A, F)
                T.copy(F, B)

    return main


swapped()

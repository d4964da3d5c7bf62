# RUN: tlc-build --check %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a --kernel=view_dtype %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cpu -o %t %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 %s 2>&1 | FileCheck %s
# What the GPU targets refuse of fragment views, located at the view when
# building (--check is clean, the CPU target builds it): a view of a
# fragment as another element type is no re-indexing of its registers.
import tilelang
import tilelang.language as T


@tilelang.jit
def view_dtype(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.int32)):
    with T.Kernel(1, threads=128):
        f = T.alloc_fragment((64, 64), T.float32)
        # CHECK: fragment-reshape-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: T.view of a fragment as another element type ('f32' to 'i32') is not a re-indexing of its registers
        bits = T.view(f, (64, 64), T.int32)
        T.copy(A, f)
        T.copy(bits, B)


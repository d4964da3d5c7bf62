# A tensor parameter annotated with dtype Any (`T.Tensor[[int, int], Any]`,
# TileLang's jit2-style annotation: the argument's dtype) takes its dtype
# from `-D NAME.dtype=...`, what the Python package passes from the call's
# tensor; its `int` extents stay symbols bound from the argument's shape.
# Without the binding it is analysed as float32, with a warning at the
# parameter; a binding that is no dtype is an error there.
# RUN: tlc-build --defines-only --kernel=scale --emit=tile -D A.dtype=T.float16 %s 2>&1 | FileCheck %s --check-prefix=F16 --implicit-check-not=warning:
# RUN: tlc-build --defines-only --kernel=scale --emit=tile -D A.dtype=T.int32 %s 2>&1 | FileCheck %s --check-prefix=I32 --implicit-check-not=warning:
# RUN: tlc-build --defines-only --kernel=scale --emit=tile %s 2>&1 | FileCheck %s --check-prefix=NONE
# RUN: not tlc-build --defines-only --kernel=scale --check --no-source-lines -D A.dtype=3 %s 2>&1 | FileCheck %s --check-prefix=BAD
from typing import Any

import tilelang
import tilelang.language as T


# F16: tile.func @scale(%A: !tile.buffer<[A_shape0, A_shape1], f16, global>, %B: !tile.buffer<[A_shape0, A_shape1], f16, global>)
# I32: tile.func @scale(%A: !tile.buffer<[A_shape0, A_shape1], i32, global>, %B: !tile.buffer<[A_shape0, A_shape1], i32, global>)
# NONE: defines-any-dtype.py:[[@LINE+4]]:11: warning: the dtype of tensor 'A' comes from the argument (Any); analysed as float32 (bind it with -D A.dtype=...)
# NONE: tile.func @scale(%A: !tile.buffer<[A_shape0, A_shape1], f32, global>
# BAD: defines-any-dtype.py:[[@LINE+2]]:11: error: -D A.dtype=3 is not a dtype
@tilelang.jit
def scale(A: T.Tensor[[int, int], Any], s: int = 2):
    M, N = A.shape
    B = T.empty((M, N), A.dtype)
    with T.Kernel(M, threads=32) as bx:
        for j in T.serial(N):
            B[bx, j] = A[bx, j] * s
    return B

# tilelang.lazy_jit with generic annotations: `int` and `T.dyn` extents are
# the argument's (run-time symbols NAME_shapeD here), `Any` dtypes too (a
# warning says what tlc assumed). No error; the kernel gets its hints.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s

from typing import Any

import tilelang
import tilelang.language as T


@tilelang.lazy_jit
def scaled_copy(
    X: T.Tensor[[T.dyn, int], T.float16],
    W: T.Tensor[[int], Any],
    block: int = 64,
):
    M, N = X.shape
    Y = T.empty((M, N), T.float16)
    with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
        tile = T.alloc_fragment((block, N), T.float16)
        T.copy(X[bx * block, 0], tile)
        for i, j in T.Parallel(block, N):
            tile[i, j] *= W[j]
        T.copy(tile, Y[bx * block, 0])
    return Y


scaled_copy.compile(X=T.Tensor((512, 128), T.float16), W=T.Tensor((128,), T.float16))

# DIAG: lazy-jit-generic.py:16:5: warning: the dtype of tensor 'W' comes from the argument (Any); analysed as float32 (bind it with -D W.dtype=...)

# CHECK: "name":"X","kind":"tensor","shape":["X_shape0","X_shape1"],"dtype":"float16","scope":"global"
# CHECK: "name":"W","kind":"tensor","shape":["W_shape0"],"dtype":"float32","scope":"global"
# CHECK: "name":"Y","kind":"tensor","shape":["X_shape0","X_shape1"],"dtype":"float16","scope":"global"

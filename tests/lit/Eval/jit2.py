# `tilelang.jit2` is an earlier TileLang spelling of the eager
# `@tilelang.jit` (the function is the kernel body; T.empty outputs are
# returned, T.make_tensor views raw pointers): checked like it, with hints.
# Its generic annotations read like tilelang.lazy_jit's (lazy-jit-generic.py):
# `int` extents are the argument's, an `Any` dtype is assumed with a warning.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
from typing import Any

import tilelang
import tilelang.language as T


@tilelang.jit2
def add_one(A: T.Tensor[[int, int], Any], block: int = 64):
    M, N = A.shape
    C = T.empty(M, N, dtype=A.dtype)
    with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
        tile = T.alloc_shared((block, N), A.dtype)
        T.copy(A[bx * block, 0], tile)
        for i, j in T.Parallel(block, N):
            tile[i, j] = tile[i, j] + 1
        T.copy(tile, C[bx * block, 0])
    return C


@tilelang.jit2
def scale_ptr(A: T.ptr, B: T.ptr, M: int, N: int, dtype: T.dtype, block: int = 32):
    A = T.make_tensor(A, (M, N), dtype)
    B = T.make_tensor(B, (M, N), dtype)
    with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
        frag = T.alloc_fragment((block, N), dtype)
        T.copy(A[bx * block, 0], frag)
        for i, j in T.Parallel(block, N):
            frag[i, j] = frag[i, j] * 2
        T.copy(frag, B[bx * block, 0])


add_one.par_compile([{"A": T.Tensor((256, 128), dtype=T.float16)}])
scale_ptr.par_compile([{"A": T.ptr(), "B": T.ptr(), "M": 256, "N": 64, "dtype": T.float32}])

# DIAG: jit2.py:15:13: warning: the dtype of tensor 'A' comes from the argument (Any); analysed as float32 (bind it with -D A.dtype=...)
# CHECK-DAG: "name":"tile","kind":"buffer","shape":[64,"A_shape1"],"dtype":"float32","scope":"shared.dyn"
# CHECK-DAG: "name":"frag","kind":"buffer","shape":[32,64],"dtype":"float32","scope":"local.fragment"

# tilelang.lazy_jit with raw pointers: a parameter annotated `T.ptr` is a
# 64-bit pointer parameter of the kernel whatever the call passes (`T.ptr()`
# to compile, a torch tensor to run), and `T.make_tensor` views it with the
# shape and the `T.dtype` parameter of the call. `T.float16.torch()` is
# torch.float16, which names the same dtype again.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

from itertools import product

import torch
import tilelang
import tilelang.language as T


@tilelang.lazy_jit
def scale_ptr(
    X: T.ptr,
    Y: T.ptr,
    M: int,
    N: int,
    dtype: T.dtype,
    block: int = 32,
):
    X = T.make_tensor(X, (M, N), dtype)
    Y = T.make_tensor(Y, (M, N), dtype)
    with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
        tile = T.alloc_fragment((block, N), dtype)
        T.copy(X[bx * block, 0], tile)
        for i, j in T.Parallel(block, N):
            tile[i, j] = tile[i, j] * 2
        T.copy(tile, Y[bx * block, 0])


scale_ptr.par_compile([{
    "X": T.ptr(),
    "Y": T.ptr(),
    "M": 256,
    "N": 64,
    "dtype": dt,
} for dt, in product([T.float16])])

x = torch.randn(128, 32, dtype=T.float32.torch())
y = torch.empty_like(x)
scale_ptr(x, y, 128, 32, T.float32.torch())

# CHECK: tile.func @scale_ptr(%X: i64, %Y: i64)
# CHECK: tile.make_tensor %X : i64 -> !tile.buffer<[256, 64], f16, global>
# CHECK: tile.make_tensor %Y : i64 -> !tile.buffer<[256, 64], f16, global>
# CHECK: tile.func @scale_ptr_1(%X: i64, %Y: i64)
# CHECK: tile.make_tensor %X : i64 -> !tile.buffer<[128, 32], f32, global>

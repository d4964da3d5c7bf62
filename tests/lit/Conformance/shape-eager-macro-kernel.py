# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: eager @tilelang.jit whose kernel is a @T.macro (A.shape, T.empty, T.Kernel, return),
# T.const / T.dynamic, torch-tensor and .compile call sites. G: T.if_then_else/max/min.
import torch

import tilelang
import tilelang.language as T


@T.macro
def leaky_clip_impl(A, lo, hi, slope):
    M, N = A.shape
    B = T.empty((M, N), A.dtype)
    with T.Kernel(T.ceildiv(N, 128), T.ceildiv(M, 32), threads=128) as (bx, by):
        tile = T.alloc_fragment((32, 128), T.float32)
        T.copy(A[by * 32, bx * 128], tile)
        for i, j in T.Parallel(32, 128):
            v = tile[i, j]
            v = T.if_then_else(v < 0, v * slope, v)
            tile[i, j] = T.min(T.max(v, lo), hi)
        T.copy(tile, B[by * 32, bx * 128])
    return B


@tilelang.jit
def clip_static(A, lo=-1.0, hi=1.0, slope=0.1):
    M, N = T.const("M, N")
    A: T.Tensor[[M, N], T.float16]
    return leaky_clip_impl(A, lo, hi, slope)


@tilelang.jit
def clip_dynamic_rows(A, lo=-6.0, hi=6.0, slope=0.0):
    M = T.dynamic("M")
    N = T.const("N")
    A: T.Tensor[[M, N], T.float32]
    return leaky_clip_impl(A, lo, hi, slope)


x16 = torch.randn(1024, 512, dtype=torch.float16, device="cuda")
y16 = clip_static(x16)
k_dyn = clip_dynamic_rows.compile(N=256)

# CHECK: "instance":"clip_static(tensor[1024, 512])","name":"A","kind":"tensor","shape":[1024,512],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"B","kind":"tensor","shape":[1024,512],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[4,32],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "instance":"clip_dynamic_rows(N=256)","name":"A","kind":"tensor","shape":["M",256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[2,"ceildiv(M, 32)"],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"

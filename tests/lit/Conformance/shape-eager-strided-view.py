# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: eager T.StridedTensor consts bound from a sliced torch view at the call site,
# kernel in a @T.macro with T.empty (as in test_jit2_return). G: T.max/T.min clamp.
import torch

import tilelang
import tilelang.language as T


@T.macro
def clamp_copy(A, lo, hi):
    M, N = A.shape
    B = T.empty((M, N), A.dtype)
    with T.Kernel(T.ceildiv(N, 128), T.ceildiv(M, 32), threads=128) as (bx, by):
        tile = T.alloc_fragment((32, 128), T.float32)
        T.copy(A[by * 32, bx * 128], tile)
        for i, j in T.Parallel(32, 128):
            tile[i, j] = T.min(T.max(tile[i, j], lo), hi)
        T.copy(tile, B[by * 32, bx * 128])
    return B


@tilelang.jit
def clamp_strided(A, lo=0.0, hi=1.0):
    M, N, sM, sN = T.const("M, N, sM, sN")
    A: T.StridedTensor[[M, N], [sM, sN], T.float32]
    return clamp_copy(A, lo, hi)


base = torch.randn(256, 2, 512, 2, device="cuda")
# a (256, 512) view with strides (2048, 2)
y_view = clamp_strided(base[:, 0, :, 0])

# CHECK: "instance":"clamp_strided(tensor[256, 512])","name":"A","kind":"tensor","shape":[256,512],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"B","kind":"tensor","shape":[256,512],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[4,8],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"

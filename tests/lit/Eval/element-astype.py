# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile %s | FileCheck %s
# `A[i].astype(dtype)` on a buffer element casts the loaded value, as
# PrimExpr.astype does (the public GEMV example); it was an opaque value.
# CHECK: %[[A:.*]] = tile.load %A[{{.*}}] : !tile.buffer<[32], f16, global>
# CHECK: arith.extf %[[A]] : f16 to f32
# CHECK: %[[B:.*]] = tile.load %B[{{.*}}] : !tile.buffer<[32], f16, global>
# CHECK: arith.fptosi %[[B]] : f16 to i32
import tilelang
import tilelang.language as T


@tilelang.jit
def widen(N=32):
    A: T.Tensor((N,), T.float16)
    B: T.Tensor((N,), T.float16)
    C: T.Tensor((N,), T.float32)
    D: T.Tensor((N,), T.int32)
    with T.Kernel(1, threads=N) as _:
        t = T.get_thread_binding(0)
        C[t] = A[t].astype("float32")
        D[t] = B[t].astype(T.int32)

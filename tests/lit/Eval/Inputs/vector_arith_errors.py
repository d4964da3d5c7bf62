import tilelang
import tilelang.language as T


@tilelang.jit
def lanes_differ(A: T.Tensor((4,), T.float16), B: T.Tensor((4,), T.float16)):
    with T.Kernel(1, threads=1):
        v = T.float16x2(A[0], A[1])
        w = T.float16x4(A[0], A[1], A[2], A[3])
        s = v + w
        f = T.Cast(T.float32x4, v)
        c = v < w
        B[0] = A[0]

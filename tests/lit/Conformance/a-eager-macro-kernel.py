# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A (+B): an eager @tilelang.jit whose whole launch lives in a
# module-level @T.macro: the macro reads A.shape / A.dtype, declares the
# T.empty output itself and returns it; the jit function returns the macro's
# result. A second macro is recursive with a compile-time base case.
import tilelang
import tilelang.language as T


@T.macro
def tree_sum(buf, lo, n):
    if n == 1:
        return buf[lo]
    half = n // 2
    return tree_sum(buf, lo, half) + tree_sum(buf, lo + half, n - half)


@T.macro
def window_sum_impl(A, window, block):
    N = A.shape[0]
    B = T.empty((N,), A.dtype)
    with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
        taps = T.alloc_local((window,), A.dtype)
        tx = T.get_thread_binding()
        i = bx * block + tx
        for w in T.unroll(window):
            taps[w] = T.if_then_else(i + w < N, A[T.min(i + w, N - 1)], T.cast(0, A.dtype))
        if i < N:
            B[i] = tree_sum(taps, 0, window)
    return B


@tilelang.jit
def window_sum(A, window: int = 5, block: int = 256):
    N = T.const("N")
    A: T.Tensor((N,), T.float32)
    return window_sum_impl(A, window, block)


kernel = window_sum.compile(N=100000, window=7)

# CHECK: "name":"A","kind":"tensor","shape":[100000],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"B","kind":"tensor","shape":[100000],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[391],{{.*}}"detail":"256 threads"
# CHECK: "name":"taps","kind":"buffer","shape":[7],"dtype":"float32","scope":"local","layout":null

# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: packed x2 math (T.fma2/max2/mul2/abs2) on T.Ramp-indexed float32x2, T.Broadcast.
# Shape: lazy factory + plain helper functions returning PrimExprs.
import tilelang
import tilelang.language as T


def pair_index(base, lanes=2):
    """Plain helper: a contiguous vector index of `lanes` elements."""
    return T.Ramp(base * lanes, 1, lanes)


def splat(value, lanes=2):
    return T.Broadcast(T.float32(value), lanes)


@tilelang.jit(out_idx=[-1])
def leaky_axpy_x2(N, alpha=0.5, slope=0.01, threads=256):
    pairs = N // 2

    @T.prim_func
    def main(
        X: T.Tensor((N,), T.float32),
        Y: T.Tensor((N,), T.float32),
        Z: T.Tensor((N,), T.float32),
    ):
        with T.Kernel(T.ceildiv(pairs, threads), threads=threads) as bx:
            tid = T.get_thread_binding()
            p = bx * threads + tid
            staged = T.alloc_local((2,), T.float32)
            if p < pairs:
                idx = pair_index(p)
                axpy = T.fma2(X[idx], splat(alpha), Y[idx])
                leaky = T.max2(axpy, T.mul2(axpy, splat(slope)))
                staged[T.Ramp(0, 1, 2)] = T.abs2(leaky)
                Z[idx] = staged[T.Ramp(0, 1, 2)]

    return main


kernel = leaky_axpy_x2(1 << 20)

# CHECK: "name":"X","kind":"tensor","shape":[1048576],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"staged","kind":"buffer","shape":[2],"dtype":"float32","scope":"local","layout":null

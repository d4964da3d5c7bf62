# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# At N = 1000: the CPU target against NumPy's float64 |max(a, 0.01 a)|,
# a = 0.5 x + y (one rounding: 0.5 x is exact, so fma2 rounds once), and
# the sim device (sm_80, sm_90a, gfx942) against the CPU target.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -D N=1000 -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'inputs/Y.npy').astype(np.float64); z=np.load(d+'Z.npy'); a=x*0.5+y; r=np.abs(np.maximum(a, a*float(np.float32(0.01)))); print(z.shape, bool(np.allclose(z, r, rtol=1e-6, atol=0)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: (1000,) True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -D N=1000 -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -D N=1000 -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -D N=1000 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify Z: PASS
# RUN: tlc-build --target=hip:gfx90a -D N=1000 -o %t/gfx90a %s | FileCheck %s --check-prefix=BUILT
# BUILT: wrote {{.*}}leaky_axpy_x2.hsaco
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

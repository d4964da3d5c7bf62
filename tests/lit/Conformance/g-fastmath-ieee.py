# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: fast math (T.__exp/__log2/__sin/__cos, T.fast_rcp) and IEEE math (T.ieee_add..frcp).
# Shape: module-level @T.prim_func + tilelang.compile(out_idx, pass_configs).
import tilelang
import tilelang.language as T

N = 1 << 16
BLOCK = 512
THREADS = 128


@T.prim_func
def fused_activations(
    X: T.Tensor((N,), T.float32),
    Fast: T.Tensor((N,), T.float32),
    Exact: T.Tensor((N,), T.float32),
):
    with T.Kernel(T.ceildiv(N, BLOCK), threads=THREADS) as bx:
        x = T.alloc_fragment((BLOCK,), T.float32)
        fast = T.alloc_fragment((BLOCK,), T.float32)
        exact = T.alloc_fragment((BLOCK,), T.float32)
        T.copy(X[bx * BLOCK], x)
        for i in T.Parallel(BLOCK):
            # SiLU and a positional feature with the approximate intrinsics
            sig = T.fast_rcp(1.0 + T.__exp(-x[i]))
            fast[i] = x[i] * sig + T.__sin(x[i]) * T.__cos(x[i]) + T.__log2(T.abs(x[i]) + 1.0)
        for i in T.Parallel(BLOCK):
            # the same SiLU with explicit IEEE rounding
            denom = T.ieee_add(1.0, T.exp(-x[i]), "rn")
            silu = T.ieee_fdiv(x[i], denom, rounding_mode="rn")
            mag = T.ieee_fsqrt(T.ieee_mul(x[i], x[i], "rz"), "rn")
            inv = T.ieee_frsqrt(T.ieee_sub(mag, -1.0, "ru"))
            exact[i] = T.ieee_fmaf(silu, inv, T.ieee_frcp(mag + 2.0, "rd"), "rn")
        T.copy(fast, Fast[bx * BLOCK])
        T.copy(exact, Exact[bx * BLOCK])


kernel = tilelang.compile(
    fused_activations,
    out_idx=[1, 2],
    pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: False},
)

# CHECK: "name":"X","kind":"tensor","shape":[65536],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"Exact","kind":"tensor","shape":[65536],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"x","kind":"buffer","shape":[512],"dtype":"float32","scope":"local.fragment","layout":"parallel · 4 regs/thread"
# CHECK: "name":"fast","kind":"buffer","shape":[512],"dtype":"float32","scope":"local.fragment","layout":"parallel · 4 regs/thread"
# CHECK: "name":"exact","kind":"buffer","shape":[512],"dtype":"float32","scope":"local.fragment","layout":"parallel · 4 regs/thread"

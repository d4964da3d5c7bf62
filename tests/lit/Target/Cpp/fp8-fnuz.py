# The CPU target stores float8_e4m3fnuz, float8_e5m2fnuz (AMD's fp8: no
# infinity, no negative zero, 0x80 the NaN) and float8_e8m0fnu (an
# exponent alone, the MX block scale); it refused them ("does not support
# values of type f8E4M3FNUZ"), so test_tilelang_language_dtype's kernels
# did not build. Conversions from float32 round to nearest even and
# saturate; e8m0 gives NaN for zero and negative values, which it cannot
# hold. Checked against a NumPy oracle that enumerates each format's 256
# codes; the saved tensors are the formats' values.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %S/Inputs/fp8_fnuz_check.py inputs %t/in
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --inputs %t/in --save %t/out > /dev/null
# RUN: %python %S/Inputs/fp8_fnuz_check.py check %t/out | FileCheck %s
# CHECK: E4 OK
# CHECK: E5 OK
# CHECK: E8 OK
# CHECK: Sum OK
import tilelang
import tilelang.language as T


@tilelang.jit
def convert(X, N=256):
    X: T.Tensor((N,), T.float32)
    E4 = T.empty((N,), T.float8_e4m3fnuz)
    E5 = T.empty((N,), T.float8_e5m2fnuz)
    E8 = T.empty((N,), T.float8_e8m0fnu)
    Sum = T.empty((N,), T.float32)
    with T.Kernel(1, threads=128):
        S = T.alloc_shared((N,), T.float8_e4m3fnuz)
        for i in T.Parallel(N):
            E4[i] = X[i]
            E5[i] = X[i]
            E8[i] = X[i]
            S[i] = X[i]
        # Arithmetic reads the values back as float32.
        for i in T.Parallel(N):
            Sum[i] = T.Cast(T.float32, S[i]) + T.Cast(T.float32, E5[i])
    return E4, E5, E8, Sum


convert(T.Tensor((256,), T.float32))

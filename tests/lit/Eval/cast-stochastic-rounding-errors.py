# What T.cast(..., round="rs") refuses (cast-stochastic-rounding.py has the
# built form). TileLang's T.cast checks, while tracing, only the rounding
# mode and that rbits comes with round="rs" (tilelang/language/tir/op.py);
# the dtypes are refused by its CUDA code generator. So a format without
# sm_100a's cvt.rs (float32, float64, an integer; float16, bfloat16 and
# float4_e2m1fn are valid, cast-stochastic-rounding.py), a value that
# is not a float of at most 32 bits (cvt.rs reads float32) and random bits
# that are not integers are no --check diagnostic (they were errors, false
# ones on a program TileLang traces) and are refused when building, at the
# cast. With -D ok=1 (a float8 cast), targets without the conversion: CUDA
# below sm_100a and HIP (its generic refusal of an intrinsic it does not
# print), at the cast.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && not tlc-build --target=cpu -o %t/cpu %s 2>&1 | FileCheck %s --check-prefix=BUILD --implicit-check-not=error:
# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=BUILD --implicit-check-not=error:
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -D ok=1 %s 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: not tlc-build --target=hip:gfx942 --emit=hip -D ok=1 %s 2>&1 | FileCheck %s --check-prefix=HIP
# SM90: cast-stochastic-rounding-errors.py:[[# @LINE + 15]]:25: error: T.cast_rs: stochastic rounding (cvt.rs) needs sm_100a or sm_103a; the CUDA target builds for sm_90
# HIP: cast-stochastic-rounding-errors.py:[[# @LINE + 14]]:25: error: 'T.cast_rs' is not supported by the HIP target yet
import tilelang
import tilelang.language as T


@tilelang.jit
def casts(ok=0):

    @T.prim_func
    def main(A: T.Tensor((128,), T.float32), I: T.Tensor((128,), T.int32),
             D: T.Tensor((128,), T.float64), B: T.Tensor((128,), T.float8_e4m3fn)):
        with T.Kernel(1, threads=128) as _:
            tx = T.get_thread_binding()
            if ok == 1:
                B[tx] = T.cast(A[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
            else:
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') to float32: stochastic rounding (sm_100a's cvt.rs) converts to float16, bfloat16, float8_e4m3fn, float8_e5m2 or float4_e2m1fn only
                h = T.cast(A[tx], T.float32, round="rs", rbits=I[tx])
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') to float64:
                D[tx] = T.cast(A[tx], T.float64, round="rs", rbits=I[tx])
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') to int32:
                I[tx] = T.cast(A[tx], T.int32, round="rs", rbits=I[tx])
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') of int32: stochastic rounding converts a float of at most 32 bits (cvt.rs reads float32)
                B[tx] = T.cast(I[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') of float64:
                B[tx] = T.cast(D[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
                # BUILD: cast-stochastic-rounding-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: cannot build this kernel: T.cast(round='rs') with float32 random bits: cvt.rs takes integer bits
                B[tx] = T.cast(A[tx], T.float8_e4m3fn, round="rs", rbits=A[tx])

    return main


casts()

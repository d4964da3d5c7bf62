# What T.cast(..., round="rs") refuses (cast-stochastic-rounding.py has the
# accepted form): a format without sm_100a's cvt.rs (float32 here; float16,
# bfloat16 and float4_e2m1fn are valid, cast-stochastic-rounding-fp4.py), a value
# that is not a float of at most 32 bits (cvt.rs reads float32), random
# bits that are not integers; and, with -D ok=1, targets without the
# conversion: CUDA below sm_100a and HIP (its generic refusal of an
# intrinsic it does not print), at the cast.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -D ok=1 %s 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: not tlc-build --target=hip:gfx942 --emit=hip -D ok=1 %s 2>&1 | FileCheck %s --check-prefix=HIP
# SM90: cast-stochastic-rounding-errors.py:[[# @LINE + 19]]:25: error: T.cast_rs: stochastic rounding (cvt.rs.satfinite) needs sm_100a; the CUDA target has no such conversion
# HIP: cast-stochastic-rounding-errors.py:[[# @LINE + 18]]:25: error: 'T.cast_rs' is not supported by the HIP target yet
import tilelang
import tilelang.language as T


@tilelang.jit
def casts(ok=0):

    # expected-note@+5 {{in instance casts()}}
    # expected-note@+4 {{in instance casts()}}
    # expected-note@+3 {{in instance casts()}}
    # expected-note@+2 {{in instance casts()}}
    @T.prim_func
    def main(A: T.Tensor((128,), T.float32), I: T.Tensor((128,), T.int32),
             D: T.Tensor((128,), T.float64), B: T.Tensor((128,), T.float8_e4m3fn)):
        with T.Kernel(1, threads=128) as _:
            tx = T.get_thread_binding()
            if ok == 1:
                B[tx] = T.cast(A[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
            else:
                # expected-error@+1 {{T.cast(round='rs') rounds stochastically to float16, bfloat16, float8_e4m3fn, float8_e5m2 or float4_e2m1fn (sm_100a's cvt.rs), not to float32}}
                h = T.cast(A[tx], T.float32, round="rs", rbits=I[tx])
                # expected-error@+1 {{T.cast(round='rs') converts a float of at most 32 bits (cvt.rs reads float32), got int32}}
                B[tx] = T.cast(I[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
                # expected-error@+1 {{T.cast(round='rs') converts a float of at most 32 bits (cvt.rs reads float32), got float64}}
                B[tx] = T.cast(D[tx], T.float8_e4m3fn, round="rs", rbits=I[tx])
                # expected-error@+1 {{T.cast(round='rs') needs integer random bits, got float32}}
                B[tx] = T.cast(A[tx], T.float8_e4m3fn, round="rs", rbits=A[tx])

    return main


casts()

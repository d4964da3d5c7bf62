# A factory no call site instantiates is analysed with an unbound dtype
# parameter as float32 (silently: only a call supplies it, and TileLang
# traces no factory that nothing calls; uncalled-factory-quiet.py). A check on the dtype's
# class that float32 fails (`~x`, `x & m`, a stochastic rounding to it) is
# then a warning: the real dtype (an integer, float16) may pass. With a call
# site that binds float32, the same operations are errors of the program.
# RUN: tlc-build --verify-diagnostics %s
import tilelang
import tilelang.language as T


def unbound(n, dtype):

    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                # expected-warning@+1 {{operator ~ on a floating-point value (this instance analyses a dtype no call binds as float32; the real dtype may not fail here)}}
                B[i] = ~A[i]
            for i in T.Parallel(n):
                # expected-warning@+1 {{bitwise operator on a floating-point value (this instance analyses a dtype no call binds as float32; the real dtype may not fail here)}}
                B[i] = A[i] & 7

    return main


def unbound_rounding(out_dtype):

    @T.prim_func
    def main(A: T.Tensor((32,), T.float32), B: T.Tensor((32,), out_dtype)):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            # expected-warning@+1 {{T.cast(round='rs') rounds stochastically to float16, bfloat16, float8_e4m3fn, float8_e5m2 or float4_e2m1fn (sm_100a's cvt.rs), not to float32 (this instance analyses a dtype no call binds as float32; the real dtype may not fail here)}}
            B[tx] = T.cast(A[tx], out_dtype, round="rs", rbits=tx)

    return main


def bound(n, dtype):

    # expected-note@+3 {{in instance bound(64, dtype=float32)}}
    # expected-note@+2 {{in instance bound(64, dtype=float32)}}
    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                # expected-error@+1 {{operator ~ on a floating-point value}}
                B[i] = ~A[i]
            for i in T.Parallel(n):
                # expected-error@+1 {{T.cast(round='rs') rounds stochastically to float16, bfloat16, float8_e4m3fn, float8_e5m2 or float4_e2m1fn (sm_100a's cvt.rs), not to float32}}
                B[i] = T.cast(A[i], dtype, round="rs", rbits=i)

    return main


bound(64, dtype=T.float32)

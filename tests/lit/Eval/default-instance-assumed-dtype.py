# A factory no call site instantiates is analysed with an unbound dtype
# parameter as float32 (silently: only a call supplies it, and TileLang
# traces no factory that nothing calls; uncalled-factory-quiet.py). A check
# on the dtype's class that float32 fails (`~x`, `x & m`) is silent there
# too; --kernel asking for the instance gets it as a warning (the real
# dtype, an integer, may pass). With a call site that binds float32, the
# same operations are errors of the program. A stochastic rounding to
# float32 is neither: TileLang traces it and only its code generator
# refuses it (cast-stochastic-rounding-errors.py).
# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --check --kernel=unbound %s 2>&1 | FileCheck %s --check-prefix=ASKED
import tilelang
import tilelang.language as T


def unbound(n, dtype):

    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                # ASKED: default-instance-assumed-dtype.py:[[@LINE+1]]:{{[0-9]+}}: warning: operator ~ on a floating-point value (this instance analyses a dtype no call binds as float32; the real dtype may not fail here)
                B[i] = ~A[i]
            for i in T.Parallel(n):
                # ASKED: default-instance-assumed-dtype.py:[[@LINE+1]]:{{[0-9]+}}: warning: bitwise operator on a floating-point value (this instance analyses a dtype no call binds as float32; the real dtype may not fail here)
                B[i] = A[i] & 7

    return main


def unbound_rounding(out_dtype):

    @T.prim_func
    def main(A: T.Tensor((32,), T.float32), B: T.Tensor((32,), out_dtype)):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            B[tx] = T.cast(A[tx], out_dtype, round="rs", rbits=tx)

    return main


def bound(n, dtype):

    # expected-note@+2 {{in instance bound(64, dtype=float32)}}
    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                # expected-error@+1 {{operator ~ on a floating-point value}}
                B[i] = ~A[i]
            for i in T.Parallel(n):
                B[i] = T.cast(A[i], dtype, round="rs", rbits=i)

    return main


bound(64, dtype=T.float32)

# A prim_func may leave its parameters unannotated and type them with
# annotation statements in its body, as eager kernels do (`A: T.Tensor[...]`
# after the signature, before or after T.annotate_* calls); symbols made in
# the body (T.dynamic) may size them. A parameter typed nowhere is still an
# error.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=hints --format=json %s 2>/dev/null | FileCheck %s
import tilelang
import tilelang.language as T
from tilelang.transform import PassConfigKey


@T.prim_func
def scale_rows(X, Y, s: T.float32):
    T.annotate_pass_configs({PassConfigKey.TL_ENABLE_FAST_MATH: True})
    X: T.Tensor[[32, 48], T.float16]
    Y: T.Tensor[[32, 48], T.float32]
    with T.Kernel(32, threads=64) as r:
        for c in T.Parallel(48):
            Y[r, c] = T.cast(X[r, c], T.float32) * s


@T.prim_func
def ragged(Src, Dst):
    n = T.dynamic("n")
    Src: T.Tensor[[n], T.int32]
    Dst: T.Tensor[[n * 2], T.int32]
    with T.Kernel(1, threads=1):
        for i in T.serial(n):
            Dst[2 * i] = Src[i]
            Dst[2 * i + 1] = -Src[i]


@T.prim_func
# expected-error@+1 {{parameter 'Q' of a prim_func must be annotated}}
def untyped(P, Q):
    P: T.Tensor[[8], T.float32]
    with T.Kernel(1, threads=8):
        for i in T.Parallel(8):
            P[i] = 0.0


# CHECK-DAG: "kernel":"scale_rows",{{.*}}"name":"X","kind":"tensor","shape":[32,48],"dtype":"float16"
# CHECK-DAG: "kernel":"scale_rows",{{.*}}"name":"Y","kind":"tensor","shape":[32,48],"dtype":"float32"
# CHECK-DAG: "kernel":"ragged",{{.*}}"name":"Dst","kind":"tensor","shape":["n * 2"],"dtype":"int32"

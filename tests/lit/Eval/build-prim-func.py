# T.build_prim_func(name, parameters, body): a prim_func without a
# decorator. `parameters` is a sequence of (name, annotation) pairs, `body`
# is called with the parameters in order (macros compose inside it), and
# the result is a PrimFunc named `name` (TileLang's test_build_prim_func
# asserts attrs["global_symbol"] == name and the buffer names). tlc traces
# it as the kernel `name` whose tensors carry the parameter names, so the
# hints are those of the equivalent @T.prim_func; tilelang.compile of it
# gives a kernel with that signature (a call with too few inputs raises, as
# TileLang's does, here caught). Parameter names must be unique
# (ValueError, as TileLang raises).
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK-DAG: "kernel":"copy","instance":"copy","name":"A","kind":"tensor","shape":[128]
# CHECK-DAG: "kernel":"copy","instance":"copy","name":"scratch","kind":"tensor","shape":[128]
# CHECK-DAG: "kernel":"copy","instance":"copy","name":"B","kind":"tensor","shape":[128]
# CHECK-DAG: "kernel":"copy","instance":"copy","name":"S","kind":"buffer","shape":[128],"dtype":"float32","scope":"shared
# CHECK-DAG: "kernel":"scaled","instance":"scaled","name":"X","kind":"tensor","shape":[64,32],"dtype":"float16"
import tilelang
import tilelang.language as T


@T.macro
def _copy(A, B, n):
    for i in T.Parallel(n):
        B[i] = A[i]


parameters = (
    ("A", T.Tensor((128,), T.float32)),
    ("scratch", T.Tensor((128,), T.float32)),
    ("B", T.Tensor((128,), T.float32)),
)


def body(A, scratch, B):
    with T.Kernel(1, threads=128):
        S = T.alloc_shared((128,), T.float32)
        T.copy(A, S)
        _copy(S, scratch, 128)
    with T.Kernel(1, threads=128):
        _copy(scratch, B, 128)


function = T.build_prim_func("copy", parameters, body)
kernel = tilelang.compile(function)
try:
    kernel()
    raise AssertionError("a call without inputs was accepted")
except Exception:
    pass


# A scalar parameter and a lambda body.
def scale(X, factor):
    with T.Kernel(2, threads=128) as bx:
        for i, j in T.Parallel(32, 32):
            X[bx * 32 + i, j] = X[bx * 32 + i, j] * factor


scaled = T.build_prim_func("scaled", (("X", T.Tensor((64, 32), T.float16)), ("factor", T.float16)),
                           lambda X, factor: scale(X, factor))

try:
    T.build_prim_func("duplicate", (("A", T.Tensor((1,), T.float32)), ("A", T.Tensor((1,), T.float32))),
                      lambda *_: None)
    raise AssertionError("duplicate parameter names were accepted")
except ValueError:
    pass

# RUN: tlc-build --verify-diagnostics %s
# A prim_func that launches no kernel (TIR-level code, e.g. a body an
# intrinsic emitter fills) may allocate registers at its top level, as
# TileLang accepts: a warning says tlc does not analyse them. In a prim_func
# that launches a kernel, an allocation before it stays an error (scope.py).
import tilelang
import tilelang.language as T


@T.prim_func
def tir_only():
    # expected-warning@+1 {{T.alloc_local outside any T.Kernel, in a prim_func that launches none (TIR-level code): tlc does not analyse this buffer or the code that uses it}}
    a_local = T.alloc_local((8,), "float16")
    # expected-warning@+1 {{T.alloc_fragment outside any T.Kernel}}
    c_local = T.alloc_fragment((16,), "float32")


@T.prim_func
def launched(A: T.Tensor((8,), "float16")):
    # expected-error@+1 {{T.alloc_local can only be used inside a T.Kernel region}}
    early = T.alloc_local((8,), "float16")
    with T.Kernel(1, threads=8) as bx:
        A[0] = 0

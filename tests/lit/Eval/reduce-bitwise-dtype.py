# Bitwise reductions (T.reduce_bitand / bitor / bitxor, T.reduce with a
# bitwise reduce_type) need integer or bool elements, as in TileLang (its
# issue 2570 test): over floats the error is at the buffer argument, on
# every target and in --check (it reached nvcc before). Integer and bool
# buffers are accepted.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: reduce-bitwise-dtype.py:[[# @LINE + 14]]:25: error: T.reduce_bitand requires an integer or bool buffer, got float32
import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((32, 32), "float32"), H: T.Tensor((32, 32), "float16")):
    with T.Kernel(1, threads=128):
        a = T.alloc_fragment((32, 32), "float32")
        h = T.alloc_fragment((32, 32), "float16")
        r = T.alloc_fragment((32,), "float32")
        q = T.alloc_fragment((32,), "float16")
        T.copy(A, a)
        T.copy(H, h)
        # expected-error@+1 {{T.reduce_bitand requires an integer or bool buffer, got float32}}
        T.reduce_bitand(a, r, dim=1)
        # expected-error@+1 {{T.reduce_bitor requires an integer or bool buffer, got float16}}
        T.reduce_bitor(h, q, dim=1)
        # expected-error@+1 {{T.reduce_bitxor requires an integer or bool buffer, got float16}}
        T.reduce_bitxor(h, q, dim=1)


@T.prim_func
def fine(A: T.Tensor((32, 32), "int32"), B: T.Tensor((32, 32), "bool"),
         O: T.Tensor((32,), "int32")):
    with T.Kernel(1, threads=128):
        a = T.alloc_fragment((32, 32), "int32")
        b = T.alloc_fragment((32, 32), "bool")
        r = T.alloc_fragment((32,), "int32")
        s = T.alloc_fragment((32,), "bool")
        T.copy(A, a)
        T.copy(B, b)
        T.reduce_bitand(a, r, dim=1)
        T.reduce_bitor(a, r, dim=1)
        T.reduce_bitxor(a, r, dim=1)
        T.reduce_bitor(b, s, dim=1)
        T.copy(r, O)

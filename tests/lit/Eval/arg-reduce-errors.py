# What T.reduce_argmax / T.reduce_argmin reject whatever the target (the
# cases of TileLang's arg-reduce argument tests), each located at the
# argument at fault: dim out of bounds or not an integer, an output that
# is not int32/int64 or of the wrong shape, a global operand, an element
# instead of a buffer, a zero or symbolic extent, an extent the index type
# cannot hold, a bool input; and the call inside T.Parallel.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: arg-reduce-errors.py:[[# @LINE + 19]]:31: error: T.reduce_argmax dim 2 is out of bounds for input rank 2

import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((4, 128), "float32"), G: T.Tensor((4, 128), "float32"),
        n: T.int32):
    with T.Kernel(1, threads=128):
        x = T.alloc_fragment((4, 128), "float32")
        i = T.alloc_fragment((4,), "int32")
        f = T.alloc_fragment((4,), "float32")
        w = T.alloc_fragment((3,), "int32")
        z = T.alloc_shared((4, n), "float32")
        big = T.alloc_shared((4, 2**31), "int8")
        flags = T.alloc_fragment((4, 128), "bool")
        k = T.alloc_fragment((4, 1), "int64")
        T.copy(A, x)
        # expected-error@+1 {{T.reduce_argmax dim 2 is out of bounds for input rank 2}}
        T.reduce_argmax(x, i, 2)
        # expected-error@+1 {{T.reduce_argmin dim -3 is out of bounds for input rank 2}}
        T.reduce_argmin(x, i, dim=-3)
        # expected-error@+1 {{T.reduce_argmax dim must be an integer, not 'float'}}
        T.reduce_argmax(x, i, 1.5)
        # expected-error@+1 {{T.reduce_argmin output dtype must be int32 or int64, not float32}}
        T.reduce_argmin(x, f, 1)
        # expected-error@+1 {{T.reduce_argmax output shape must be [4] or [4, 1], not [3]}}
        T.reduce_argmax(x, w, 1)
        # expected-error@+1 {{T.reduce_argmax expects fragment or shared buffers, but 'G' is in global}}
        T.reduce_argmax(G, i, 1)
        # expected-error@+1 {{T.reduce_argmin expects input and output buffers, not 'BufferRegion'}}
        T.reduce_argmin(x[0, 0], i)
        # expected-error@+1 {{T.reduce_argmax requires a positive constant reduction extent, but dimension 1 of 'z' is n}}
        T.reduce_argmax(z, i, 1)
        # expected-error@+1 {{T.reduce_argmin reduction extent 2147483648 cannot be represented by output dtype int32}}
        T.reduce_argmin(big, i, 1)
        # expected-error@+1 {{T.reduce_argmax does not support input dtype bool}}
        T.reduce_argmax(flags, i, 1)
        for r, c in T.Parallel(4, 1):
            k[r, c] = 0
            # expected-error@+1 {{T.reduce_argmin cannot be used inside T.Parallel}}
            T.reduce_argmin(x, k, 1)

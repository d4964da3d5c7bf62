# The errors of raw-TIR vector lets (vector-let.py): a region of another
# number of elements or of another element type than the vector's lanes.
# RUN: tlc-build --verify-diagnostics %s

import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((16, 16), T.float32)):
    with T.Kernel(1, threads=1):
        # expected-error@+1 {{a float32x4 value holds 4 elements, the region has 8}}
        d: T.float32x4 = A[0, 0:8]
        # expected-error@+1 {{a float16x4 value cannot hold elements of float32}}
        e: T.float16x4 = A[0, 0:4]
        f: T.float32x4 = A[0, 4:8]
        # expected-error@+1 {{the region has 2 elements, the vector 'f' 4 lanes}}
        A[1, 0:2] = f

# Python integers are unbounded; tlc's are 64-bit. A literal that needs the
# 64th bit (an all-ones uint64 mask) keeps its bit pattern with a warning
# naming what was assumed; a literal wider than 64 bits is an error.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
import tilelang.language as T


@T.prim_func
def masks(A: T.Tensor((2,), T.uint64), B: T.Tensor((2,), T.int64)):
    with T.Kernel(1, threads=1):
        # expected-warning@+1 {{integer literal 0xffffffffffffffff exceeds the signed 64-bit range; tlc holds its low 64 bits (-1 as a signed value)}}
        A[0] = A[1] & T.uint64(0xffffffffffffffff)
        B[0] = B[1] & 0x7fffffffffffffff
        B[1] = -0x7fffffffffffffff - 1


small = 1_000_000
# expected-error@+1 {{integer literal does not fit in 64 bits}}
huge = 0x1_0000_0000_0000_0000

# CHECK-LABEL: tile.func @masks
# CHECK: arith.constant -1 : i64
# CHECK: arith.constant 9223372036854775807 : i64

# Python integers are unbounded. A literal that needs the 64th bit (an
# all-ones uint64 mask) is a uint64 value and keeps its bit pattern in IR; a
# literal wider than 64 bits is a Python int like any other
# (bigint-arith.py checks their arithmetic against CPython).
# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
import tilelang.language as T


@T.prim_func
def masks(A: T.Tensor((2,), T.uint64), B: T.Tensor((2,), T.int64)):
    with T.Kernel(1, threads=1):
        A[0] = A[1] & T.uint64(0xffffffffffffffff)
        B[0] = B[1] & 0x7fffffffffffffff
        B[1] = -0x7fffffffffffffff - 1


small = 1_000_000
huge = 0x1_0000_0000_0000_0000
assert huge == 2**64 and huge - 1 == 0xffff_ffff_ffff_ffff

# CHECK-LABEL: tile.func @masks
# CHECK: arith.constant -1 : i64
# CHECK: arith.constant 9223372036854775807 : i64

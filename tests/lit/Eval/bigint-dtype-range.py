# A Python int beyond 64 signed bits is a value of an integer dtype only if
# that dtype holds it: uint64 holds 2**64 - 1 and 1 << 63, int64 does not.
# Where it does not, the error is at the int. Programs shaped like TileLang's
# uint64 JIT test (uint64 tensors and scalars, all-ones masks, constants
# handed to a factory) check clean and keep the bit patterns.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
import tilelang
import tilelang.language as T

MASK = (1 << 64) - 1
TOP = 1 << 63


@tilelang.jit
def masked(mask=MASK, top=TOP):
    @T.prim_func
    def main(A: T.Tensor((128,), T.uint64), B: T.Tensor((128,), T.uint64),
             value: T.uint64):
        with T.Kernel(1, threads=128):
            i = T.get_thread_binding(0)
            B[i] = (A[i] + T.uint64(1)) & mask
            B[i] = B[i] | top
            B[0] = value ^ T.uint64(0xffffffffffffffff)
            if (1 << 63) <= B[i]:
                B[i] = 1 << 63
    return main


kernel = masked()
values = [0, 1, TOP - 1, TOP, MASK] * 25 + [2, 3, 4]
expected = [(x + 1) % (1 << 64) for x in values]
assert expected[4] == 0 and expected[3] == TOP + 1


@T.prim_func
def bad(A: T.Tensor((4,), T.int64), B: T.Tensor((4,), T.uint64)):
    with T.Kernel(1, threads=1):
        # expected-error@+1 {{integer 9223372036854775808 does not fit in int64 (-2**63 to 2**63-1)}}
        A[0] = A[1] & (1 << 63)
        # expected-error@+1 {{integer 18446744073709551616 does not fit in uint64 (0 to 2**64-1)}}
        B[0] = T.uint64(1 << 64)
        # expected-error@+1 {{integer -9223372036854775809 does not fit in uint64 (0 to 2**64-1)}}
        B[1] = B[2] + (-(1 << 63) - 1)
        # expected-error@+1 {{integer 9223372036854775808 does not fit in int64 (-2**63 to 2**63-1)}}
        A[1] = 1 << 63
        # expected-error@+1 {{integer 18446744073709551616 does not fit in uint64 (0 to 2**64-1)}}
        if (1 << 64) > B[3]:
            B[3] = (1 << 64) - 1


# CHECK-LABEL: tile.func @masked
# CHECK: arith.constant -1 : i64
# CHECK: arith.andi
# CHECK: arith.constant -9223372036854775808 : i64
# CHECK: arith.ori
# CHECK: arith.constant -1 : i64
# CHECK: arith.xori
# CHECK: arith.constant -9223372036854775808 : i64
# CHECK: arith.cmpi ule

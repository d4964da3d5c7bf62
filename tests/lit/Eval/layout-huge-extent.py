# A T.Layout annotated on a shared buffer whose element count overflows
# int64 (an extent of 2^62, one typo in a block size): the injectivity check
# multiplied the extents unchecked, the product wrapped to 0 and the check
# enumerated the tile, reading an index that overflowed (a crash found by
# the eval fuzz target, tests/fuzz/corpus/eval). Now the buffer gets the
# shared-memory error and the layout is not enumerated; an index function
# that overflows on a small tile is refused when the layout is built.
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
# CHECK: layout-huge-extent.py:22:14: error: shared memory usage more than 2^63 bytes exceeds the 227 KiB budget of cuda:sm_90a
# CHECK: layout-huge-extent.py:23:17: note: 's' uses more than 2^63 bytes
# CHECK: layout-huge-extent.py:38:13: warning: the layout annotated for 's' is not used: layout output '2305843009213693952 * i' is undefined (a division by zero or an int64 overflow) at (4, 0)
# CHECK: layout-huge-extent.py:38:13: warning: layout inference ignores this annotation: unknown shared-memory layout
import tilelang
import tilelang.language as T


@tilelang.jit
def huge(M=128, N=(1 << 62)):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i, j ^ ((i % 8) * 8)])})
            T.copy(A, s)
            T.copy(s, B)

    return main


@tilelang.jit
def overflowing(M=8, N=8):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(1, threads=128) as _:
            s = T.alloc_shared((M, N), "float16")
            T.annotate_layout({s: T.Layout((M, N), lambda i, j: [i * (1 << 61), j])})
            T.copy(A, s)
            T.copy(s, B)

    return main

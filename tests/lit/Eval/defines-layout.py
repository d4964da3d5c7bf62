# A -D value naming a module-level layout binds that layout: the Python
# package appends `NAME = T.Fragment(...)` to a copy of the script for a
# layout made in Python and passed to a factory (`loop_layout=F` of
# test_tilelang_annotate_loop_layout.py). Without the binding the name is a
# string and T.Parallel refuses it.
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=copy --defines-only -DM=8 -DN=4 -Dloop_layout=__tlc_arg_Fragment_rows | FileCheck %s
# RUN: not tlc-build %s --check --target=cpu --kernel=copy --defines-only -DM=8 -DN=4 -Dloop_layout=__tlc_arg_undefined 2>&1 | FileCheck %s --check-prefix=STRING

# CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [8, 4] attributes {loop_layout = #tile.fragment<[8, 4], thread = "-i + 7", index = ["j"]>, tile.loop_layout_given}
# STRING: error: loop_layout of T.Parallel must be a T.Fragment

import tilelang
import tilelang.language as T


@tilelang.jit
def copy(A, B, loop_layout):
    M, N = T.const("M, N")
    A: T.Tensor[(M, N), T.float32]
    B: T.Tensor[(M, N), T.float32]
    with T.Kernel(1, threads=8):
        for i, j in T.Parallel(M, N, loop_layout=loop_layout):
            B[i, j] = A[i, j]


def __tlc_arg_rows_fn(i, j):
    return 7 - i, j


__tlc_arg_Fragment_rows = T.Fragment((8, 4), forward_fn=__tlc_arg_rows_fn)

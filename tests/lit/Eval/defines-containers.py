# -D values that are tuples and lists, as Python prints them (what the
# Python package passes for `kernel(tuple(x.shape), order=[0, 1, 2])`):
# elements are -D values themselves (ints, strings, dtypes, nested
# containers); `(4)` is 4 and `(4,)` a one-element tuple, as in Python.
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=reduce --defines-only "-Dshape=(4, 129)" "-Dorder=[1, 0]" "-Dtiles=((2, 'x'), [T.float16])" | FileCheck %s
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=reduce --defines-only "-Dshape=(7,)" "-Dorder=[0]" "-Dtiles=((2, 'x'), [T.float16])" | FileCheck %s --check-prefix=ONE
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=reduce --defines-only "-Dshape=(6, (3))" "-Dorder=[]" "-Dtiles=((2, 'x'), [T.float16])" | FileCheck %s --check-prefix=PAREN
#
# An instance whose parameters -D binds completely is the one asked for:
# what its Python code raises is an error (exit status 1), not the warning
# of a kernel analysed with symbolic parameters.
# RUN: not tlc-build %s --emit=tile --target=cpu --kernel=reduce --defines-only "-Dshape=(4, 129)" "-Dorder=[1, 0]" "-Dtiles=((3, 'x'), [T.float16])" 2>&1 | FileCheck %s --check-prefix=RAISE
# RUN: tlc-build %s --check --kernel=reduce 2>&1 | FileCheck %s --check-prefix=SYMBOLIC

# CHECK: tile.func @reduce(%A: !tile.buffer<[4, 129], f16, global>, %B: !tile.buffer<[4], f16, global>)
# CHECK: arith.constant 129 : index
# ONE: tile.func @reduce(%A: !tile.buffer<[7], f16, global>, %B: !tile.buffer<[1], f16, global>)
# PAREN: tile.func @reduce(%A: !tile.buffer<[6, 3], f16, global>, %B: !tile.buffer<[2], f16, global>)
# RAISE: error: ValueError: tiles[0][0] must be 2, got (3, 'x')
# RAISE: note: in instance reduce(shape=(4, 129), order=[1, 0], tiles=((3, 'x'), [float16]))
# SYMBOLIC: warning: {{.*}}
# SYMBOLIC: note: raised while analysing a kernel without a call site

import tilelang
import tilelang.language as T


@tilelang.jit
def reduce(shape, order, tiles):
    if tiles[0][0] != 2:
        raise ValueError(f"tiles[0][0] must be 2, got {tiles[0]}")
    dtype = tiles[1][0]
    axis = order[0] if order else 0
    out = [len(shape) if len(order) == 0 else shape[len(shape) - 1 - axis]]
    if len(shape) == 1:
        out = [1]

    @T.prim_func
    def main(A: T.Tensor(shape, dtype), B: T.Tensor(out, dtype)):
        with T.Kernel(1, threads=1):
            for i in T.serial(shape[-1]):
                B[0] = A[0] if len(shape) == 1 else A[0, i]

    return main

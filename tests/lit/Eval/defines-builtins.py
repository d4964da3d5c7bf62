# A -D value naming a module-level builtin binds that builtin: the Python
# package appends `NAME = range` to a copy of the script for a factory
# argument such as `loop=range` (test_tilelang_language_pythonic.py passes
# range, builtins.range and T.serial as the loop of a kernel).
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=loops --defines-only -DN=8 -Dloop=__tlc_arg_range | FileCheck %s --check-prefix=RANGE
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=loops --defines-only -DN=8 -Dloop=__tlc_arg_serial | FileCheck %s --check-prefix=RANGE
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=loops --defines-only -DN=8 -Dloop=__tlc_arg_range -Dpick=__tlc_arg_min | FileCheck %s --check-prefix=MIN

# RANGE: tile.for
# RANGE-NOT: arith.constant 3 : i32
# MIN: arith.constant 3 : i32

import tilelang
import tilelang.language as T


@tilelang.jit(target="cpu")
def loops(N, loop=None, pick=None):
    @T.prim_func
    def main(A: T.Tensor((N,), "int32")):
        with T.Kernel(1, threads=1):
            for i in loop(N):
                A[i] = i
            if pick is not None:
                A[0] = pick(3, N)
    return main


__tlc_arg_range = range
__tlc_arg_min = min
__tlc_arg_serial = T.serial

# A script that imports a module from its own directory gets that module's
# values, as Python does (the script's directory is first on sys.path):
# `import m`, `import m as x`, `from m import name`, `from m import *`.
# The helper's own kernel is not traced here, and an error raised inside a
# function of the helper is reported at the call in this file, naming the
# module.
# RUN: rm -rf %t && mkdir -p %t
# RUN: cp %S/Inputs/sibling_config.py %t/ && cp %s %t/main.py
# RUN: tlc-build --emit=tile %t/main.py | FileCheck %s
# RUN: sed 's/^# BADCALL: //' %s > %t/bad.py
# RUN: not tlc-build --check --no-source-lines %t/bad.py 2>&1 | FileCheck %s --check-prefix=BAD

import tilelang
import tilelang.language as T
import sibling_config
import sibling_config as cfg
from sibling_config import BLOCK, make_sizes
from sibling_config import *  # noqa: F403


@tilelang.jit
def scale(rows, cols, dtype):
    @T.prim_func
    def main(X: T.Tensor((rows, cols), dtype)):
        with T.Kernel(rows // BLOCK, threads=128) as bx:
            tile = T.alloc_fragment((BLOCK, cols), dtype)
            T.copy(X[bx * BLOCK, 0], tile)
            for i, j in T.Parallel(BLOCK, cols):
                tile[i, j] = tile[i, j] * 2
            T.copy(tile, X[bx * BLOCK, 0])
    return main


# CHECK-NOT: helper_kernel
# CHECK: tile.func @scale(%X: !tile.buffer<[256, 128], f16, global>)
# CHECK: tile.kernel (%bx) grid [4] threads [128]
# CHECK: tile.alloc {{.*}} : !tile.buffer<[64, 128], f16, local.fragment>
# CHECK-NOT: helper_kernel
sizes = make_sizes(256)
assert sizes["name"] == "sibling_config"
assert cfg.BLOCK == sibling_config.BLOCK == BLOCK == 64
assert DTYPE == "float16"
assert "_PRIVATE" not in dir()
scale(sizes["rows"], sizes["cols"], cfg.DTYPE)



@tilelang.jit
def checked(rows):
    sizes = make_sizes(rows)  # BAD: bad.py:[[@LINE]]:13: error: AssertionError: rows must be a multiple of 64 (raised in module 'sibling_config')
    return scale(sizes["rows"], sizes["cols"], DTYPE)


# BADCALL: checked(100)

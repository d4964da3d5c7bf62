# Imports made by imported modules resolve as in Python: a helper next to
# the script imports another module next to it (the script's directory is
# sys.path[0] for every module) and a package (`tiles/__init__.py`), whose
# modules import each other relatively (`from .dtypes import ALIGN`,
# `from . import dtypes`). The kernel gets its tile sizes and dtype through
# that chain. What is truly missing is an error at the import, as Python
# raises it: a name the local module does not define, a module the local
# package does not have (also when an imported helper asks for it, reported
# at the import of that helper); inside `try: ... except ImportError:` it
# is not.
# RUN: rm -rf %t && mkdir -p %t && cp -r %S/Inputs/nested_modules/. %t/
# RUN: cp %s %t/main.py
# RUN: tlc-build --check %t/main.py 2>&1 | count 0
# RUN: tlc-build --emit=tile %t/main.py | FileCheck %s
# RUN: sed 's/^# BAD: //' %s > %t/bad.py
# RUN: not tlc-build --check --no-source-lines %t/bad.py 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:

import tilelang
import tilelang.language as T
import kernel_config as cfg
import tiles.shapes
from tiles import PACKAGE_NAME

try:
    from tiles import not_there  # noqa: F401
except ImportError:
    not_there = None


@tilelang.jit
def scale(M=256, N=256):
    @T.prim_func
    def main(X: T.Tensor((M, N), cfg.DTYPE)):
        with T.Kernel(M // cfg.BLOCK_M, N // cfg.BLOCK_N, threads=128) as (bx, by):
            tile = T.alloc_fragment((cfg.BLOCK_M, cfg.BLOCK_N), cfg.DTYPE)
            T.copy(X[bx * cfg.BLOCK_M, by * cfg.BLOCK_N], tile)
            for i, j in T.Parallel(cfg.BLOCK_M, cfg.BLOCK_N):
                tile[i, j] = tile[i, j] * 2
            T.copy(tile, X[bx * cfg.BLOCK_M, by * cfg.BLOCK_N])

    return main


assert tiles.shapes.block_shape(1) == (32, 64)
assert PACKAGE_NAME == "tiles"
assert not_there is None
scale()

# CHECK: tile.func @scale(%X: !tile.buffer<[256, 256], f16, global>)
# CHECK: tile.kernel (%bx, %by) grid [4, 2] threads [128]
# CHECK: tile.alloc {{.*}} : !tile.buffer<[64, 128], f16, local.fragment>

# BAD: from tiles.dtypes import WIDTH  # noqa: E402
# ERR: bad.py:[[@LINE-1]]:26: error: ImportError: cannot import name 'WIDTH' from 'tiles.dtypes' (raised while running module-level code)
# BAD: import broken_helper  # noqa: E402
# ERR: bad.py:[[@LINE-1]]:1: error: in module 'broken_helper': ModuleNotFoundError: No module named 'tiles.missing_module' (raised in module 'broken_helper') (raised while importing the module; its later names are unknown)

# A program is analysed as run with none of its own environment variables
# set: `os.environ.get(name, default)` and `os.getenv(name, default)` are
# the default, so sizes read from the environment are known (public
# examples size their kernels this way). tlc made them opaque: the grid,
# pipeline and copy offsets were unknown ("tlc cannot evaluate ...").
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
import os

import tilelang.language as T

M = int(os.environ.get("TLC_TEST_M", "256"))
BLOCK = int(os.getenv("TLC_TEST_BLOCK", "64"))
MODE = os.environ.get("TLC_TEST_MODE", "random")
assert MODE == "random"


# CHECK-LABEL: tile.func @fill
# CHECK-SAME: !tile.buffer<[256], f32, global>
# CHECK: tile.kernel (%bx) grid [4] threads [64]
@T.prim_func
def fill(A: T.Tensor((M,), T.float32)):
    with T.Kernel(M // BLOCK, threads=BLOCK) as bx:
        for i in T.Parallel(BLOCK):
            A[bx * BLOCK + i] = 1.0

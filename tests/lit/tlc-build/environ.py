# tlc-build --environ=NAME=VALUE sets an environment variable of the
# program: os.environ.get(NAME, default) and os.getenv(NAME) give VALUE
# (the Python package passes the variables its script reads that are set
# in its process, so tlc builds the instance the process computed). Without
# it every variable is unset: the default, as the editor analyses the file.
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=UNSET
# RUN: tlc-build --emit=tile --environ=TLC_TEST_M=512 \
# RUN:   --environ=TLC_TEST_BLOCK=128 --environ=TLC_TEST_TAG=set %s \
# RUN:   | FileCheck %s --check-prefix=SET
# RUN: not tlc-build --emit=tile --environ=TLC_TEST_M %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=BAD
# UNSET: !tile.buffer<[256], f32, global>
# UNSET: tile.kernel (%bx) grid [4] threads [64]
# SET: !tile.buffer<[512], f32, global>
# SET: tile.kernel (%bx) grid [4] threads [128]
# BAD: tlc-build: error: --environ expects NAME=VALUE, got 'TLC_TEST_M'
import os

import tilelang.language as T

M = int(os.environ.get("TLC_TEST_M", "256"))
BLOCK = int(os.getenv("TLC_TEST_BLOCK", "64"))
# One argument: None when unset, as in Python.
TAG = os.getenv("TLC_TEST_TAG")
assert TAG is None or TAG == "set"


@T.prim_func
def fill(A: T.Tensor((M,), T.float32)):
    with T.Kernel(M // BLOCK, threads=BLOCK) as bx:
        for i in T.Parallel(BLOCK):
            A[bx * BLOCK + i] = 1.0

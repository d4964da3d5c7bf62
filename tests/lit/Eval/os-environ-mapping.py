# `os.environ` is a dict of the variables the program is analysed with
# (none, unless tlc-build --environ sets them), so every way scripts read it
# gives Python's answer: `NAME in os.environ`, `os.environ[NAME]`,
# `.setdefault` (seen by a later `os.getenv` / `.get`), `.items()`; an unset
# `os.environ[NAME]` raises KeyError (a warning: module-level code that
# raises does not stop the analysis of its kernels). tlc made
# it an unknown object: `BLOCK` below was "a value from outside TileLang",
# and the grid and thread count were unknown.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=UNSET
# RUN: tlc-build --emit=tile --environ=TLC_TEST_BLOCK=128 \
# RUN:   --environ=TLC_TEST_DD=5 %s | FileCheck %s --check-prefix=SET
# RUN: tlc-build --check --environ=TLC_TEST_FAIL=1 %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=MISSING
# UNSET: !tile.buffer<[1024], f32, global>
# UNSET: tile.kernel (%bx) grid [16] threads [64]
# UNSET: arith.constant 3.2{{0*}}e+01 : f32
# SET: tile.kernel (%bx) grid [8] threads [128]
# SET: arith.constant 5.{{0*}}e+00 : f32
# MISSING: os-environ-mapping.py:[[@LINE+16]]:{{[0-9]+}}: warning: KeyError: 'TLC_TEST_REQUIRED' (raised while running module-level code)
import os
from os import environ

import tilelang.language as T

BLOCK = int(os.environ["TLC_TEST_BLOCK"]) if "TLC_TEST_BLOCK" in os.environ else 64
assert ("TLC_TEST_BLOCK" not in environ) == (BLOCK == 64)
DD = os.environ.setdefault("TLC_TEST_DD", "32")
# The value set by setdefault is the variable's from now on.
assert os.getenv("TLC_TEST_DD") == DD and environ.get("TLC_TEST_DD") == DD
# Only the variables set are there.
assert all(k.startswith("TLC_TEST_") for k, _ in os.environ.items())
N = 1024

if os.environ.get("TLC_TEST_FAIL"):
    x = os.environ["TLC_TEST_REQUIRED"]


@T.prim_func
def fill(A: T.Tensor((N,), T.float32)):
    with T.Kernel(N // BLOCK, threads=BLOCK) as bx:
        for i in T.Parallel(BLOCK):
            A[bx * BLOCK + i] = float(int(DD))

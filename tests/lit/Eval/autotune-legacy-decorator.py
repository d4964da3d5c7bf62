# TileLang's older autotune decorator at module level: `@autotune(configs,
# keys, warmup, rep, timeout)` with the configurations first, above the
# older `tilelang.autotuner.jit`. tlc-build refused it (`keys` unknown,
# configs bound to `func`), so the module did not run; now it is the tuner
# over those configurations, as `configs=` is in the current form
# (tilelang/autotuner/__init__.py of TileLang 0.1.x; issue 12).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty
# CHECKED-NOT: {{error|warning}}
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.kernel (%bx) grid [8] threads [32]
# CHECK: tile.kernel (%bx) grid [4] threads [64]
# RUN: tlc-build --emit=tile --autotune-config=1 %s | FileCheck %s --check-prefix=SECOND
# SECOND: tile.kernel (%bx) grid [4] threads [64]
# SECOND: tile.kernel (%bx) grid [2] threads [128]
# Positional arguments that fit neither form: autotune-legacy-errors.py.
import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune, jit

configs = [{"block": 32}, {"block": 64}]


@autotune(configs, ["block"], 3, 5)
@jit(out_idx=[1], ref_prog=None, skip_check=True)
def scale(block=None):
    @T.prim_func
    def main(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
        with T.Kernel(256 // block, threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 2.0

    return main


@tilelang.autotune([{"block": 64}, {"block": 128}], keys=["block"], warmup=3)
@tilelang.jit(out_idx=[1])
def shift(block=None):
    @T.prim_func
    def main(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
        with T.Kernel(256 // block, threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] + 1.0

    return main


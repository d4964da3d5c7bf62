# The tuning form of TileLang's dequantising GEMM examples: `autotune`
# comes from `from tilelang.autotuner import *`, and the tuned function
# returns the PrimFunc of another jitted factory
# (`return kernel_func(...).prim_func`), called with no arguments so that
# every parameter comes from the configurations. tlc used neither (the
# star import left `autotune` unknown, the `.prim_func` return made the
# function eager), traced `kernel_func(None, None)` and reported Python's
# TypeError as the program's error; now the first configuration is built.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK: "instance":"kernel_func(64, 64)"
# CHECK-NOT: None
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/../Eval/Inputs/lang_eval_run.py double tlc-run %t/cpu %t/w | FileCheck %s --check-prefix=OUT
# OUT: double ok

import tilelang
import tilelang.language as T
from tilelang.autotuner import *


def get_configs():
    return [{"block": 64, "threads": 64}, {"block": 128, "threads": 128}]


def scaled(N, tune=False):

    @tilelang.jit(out_idx=[1])
    def kernel_func(block, threads):

        @T.prim_func
        def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
            with T.Kernel(T.ceildiv(N, block), threads=threads) as bx:
                for i in T.Parallel(block):
                    B[bx * block + i] = A[bx * block + i] * 2.0

        return main

    if tune:

        @autotune(configs=get_configs(), warmup=1, rep=1)
        @tilelang.jit(out_idx=[1])
        def kernel(block=None, threads=None):
            return kernel_func(block, threads).prim_func

        return kernel()

    return kernel_func


scaled(256, True)

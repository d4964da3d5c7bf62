# TileLang's tuner object: `AutoTuner.from_kernel(kernel=f, configs=c)
# .set_compile_args(...).set_profile_args(...).run(...)` tunes the factory
# f over c, as @tilelang.autotune(configs=c) does (example_gemm_autotune,
# example_elementwise_add, example_convolution). tlc left the tuner opaque,
# so such a factory, called only through it, was never built ("no kernel
# instance"). Each configuration builds; the first one runs on the CPU
# target and is checked against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && env TLC_CACHE_DIR=%t.cache tlc-build --target=cpu --autotune --autotune-runs=2 -o %t %s 2>&1 | FileCheck %s
# CHECK: autotune: built 2 configurations
# CHECK: autotune: kernel(block=32): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: kernel(block=64): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: best kernel(block={{32|64}})
# RUN: rm -rf %t2 && tlc-build --target=cpu -o %t2 %s && tlc-run %t2 --save %t2/out
# RUN: %python -c "import numpy as np; d='%t2/out/kernel/'; a=np.load(d+'inputs/A.npy'); print(np.array_equal(np.load(d+'C.npy'), a * 2 + 1))" | FileCheck %s --check-prefix=OUT
# OUT: True
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# IR: tile.func @kernel(%A: !tile.buffer<[512], f32, global>, %C: !tile.buffer<[512], f32, global>)
# IR-NEXT: tile.kernel (%bx) grid [16] threads [32]
# IR: tile.func @run_on_str(%R: !tile.buffer<[7], f32, global>)

import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner


def tune(N):

    def kernel(block=None):

        @T.prim_func
        def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
            with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
                for i in T.Parallel(block):
                    C[bx * block + i] = A[bx * block + i] * 2 + 1

        return main

    tuner = AutoTuner.from_kernel(kernel=kernel, configs=[dict(block=32), dict(block=64)])
    tuner = tuner.set_compile_args(out_idx=[-1], target="auto")
    tuner = tuner.set_profile_args(skip_check=True)
    return tuner.run(warmup=3, rep=20)


result = tune(512)


# `run` is the tuner's method only: a str has none.
def str_run():
    try:
        "abc".run()
    except AttributeError:
        return 7
    return 1


@T.prim_func
def run_on_str(R: T.Tensor((str_run(),), "float32")):
    with T.Kernel(1, threads=32):
        R[0] = 1.0

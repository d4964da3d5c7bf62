# A break out of a T.Parallel names the target being built: HIP when building
# for HIP (the message was CUDA's for both).
# RUN: not tlc-build --target=hip:gfx942 --emit=hip %s 2>&1 | FileCheck %s --check-prefix=HIP
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
# HIP: error: T.loop_break: leaves a T.Parallel, whose iterations the HIP target spreads over threads
# CUDA: error: T.loop_break: leaves a T.Parallel, whose iterations the CUDA target spreads over threads

import tilelang
import tilelang.language as T


@tilelang.jit
def k(N=256):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(N):
                if A[i] > 0:
                    T.loop_break()
                A[i] = 1.0

    return main

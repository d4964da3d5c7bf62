# `float8_e4m3` is TileLang's platform-neutral e4m3: each instance stores the
# e4m3 of its target — e4m3fn on NVIDIA GPUs and the CPU reference, e4m3fnuz
# on CDNA 2/3 — so every back end that knows fp8 can build it.
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=tile --target=cpu %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=tile --target=hip:gfx942 %s | FileCheck %s --check-prefix=CDNA
# RUN: tlc-build --emit=cuda %s | FileCheck %s --check-prefix=SRC
# CUDA: !tile.buffer<[64, 64], f8E4M3FN, global>
# CUDA-NOT: f8E4M3,
# CDNA: !tile.buffer<[64, 64], f8E4M3FNUZ, global>
# SRC: __global__ void __launch_bounds__(128) scale_kernel(

import tilelang
import tilelang.language as T


@tilelang.jit
def scale(M=64, N=64, dtype="float8_e4m3"):

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, N):
                Y[i, j] = T.cast(X[i, j], "float32") * 2.0

    return main


scale()

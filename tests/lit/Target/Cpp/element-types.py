# Element types beyond f16/bf16/f32 through copies and T.Parallel
# arithmetic: float8_e5m2 read into an f32 fragment, and float64 end to end
# (f64 values must not pass through f32). Ragged M; the CPU target against
# NumPy (tlc-run saves fp8 inputs as their float32 values), and the sim
# device runs the CUDA builds against the CPU target (run_sim.py --breadth).
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/e5 %s
# RUN: tlc-run %t/e5 --save %t/e5-out
# RUN: %python -c "import numpy as np; d='%t/e5-out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'Y.npy'); print(x.dtype, bool((y == 2 * x.astype(np.float64)).all()), y.shape)" | FileCheck %s --check-prefix=E5
# RUN: tlc-build --target=cpu -o %t/f64 %s -Din_dtype=float64 -Dout_dtype=float64
# RUN: tlc-run %t/f64 --save %t/f64-out
# RUN: %python -c "import numpy as np; d='%t/f64-out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'Y.npy'); print(y.dtype, bool((y == x * 2 + 1e-12).all()))" | FileCheck %s --check-prefix=F64
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# E5: float32 True (70, 64)
# F64: float64 True
# CUDA: fp8E5M2ToFloat(

import tilelang
import tilelang.language as T


@tilelang.jit
def scale(M, N, in_dtype="float8_e5m2", out_dtype="float32", block_M=32,
          threads=128):

    @T.prim_func
    def main(X: T.Tensor((M, N), in_dtype), Y: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, N), out_dtype)
            T.copy(X[bx * block_M, 0], x)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] * 2 + T.cast(1e-12, out_dtype)
            T.copy(x, Y[bx * block_M, 0])

    return main


scale(70, 64)

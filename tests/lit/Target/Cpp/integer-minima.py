# The most negative int32 and int64 constants (the fp8 lightning indexer's
# `cu_k_e_max[0] = -2147483648`, a running maximum's start). C++ has no
# negative literals: `-2147483648` negates a long, which failed the CPU
# artifact's host compile (storeChecked deduced long against an int32
# view). The running row maxima and minima against NumPy on the CPU target.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'inputs/Y.npy'); print(bool((np.load(d+'Mx.npy') == np.maximum(x.max(axis=1), -2**31)).all()), bool((np.load(d+'Mn.npy') == y.min(axis=1)).all()), bool((np.load(d+'Lo.npy') == np.array([-2**31, -2**63], dtype=np.int64)).all()))" | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True True True
# CUDA: = (-2147483647 - 1);
# CUDA: = (-9223372036854775807ll - 1);

import tilelang
import tilelang.language as T


@tilelang.jit
def minima(M=37, N=20):

    @T.prim_func
    def main(X: T.Tensor((M, N), "int32"), Y: T.Tensor((M, N), "int64"),
             Mx: T.Tensor((M,), "int32"), Mn: T.Tensor((M,), "int64"),
             Lo: T.Tensor((2,), "int64")):
        with T.Kernel(M, threads=32) as bx:
            mx = T.alloc_local([1], "int32")
            mn = T.alloc_local([1], "int64")
            mx[0] = -2147483648
            mn[0] = 9223372036854775807
            for j in T.serial(N):
                mx[0] = T.max(mx[0], X[bx, j])
                mn[0] = T.min(mn[0], Y[bx, j])
            Mx[bx] = mx[0]
            Mn[bx] = mn[0]
            if bx == 0:
                Lo[0] = T.int64(-2147483648)
                Lo[1] = T.int64(-9223372036854775807 - 1)

    return main


minima()

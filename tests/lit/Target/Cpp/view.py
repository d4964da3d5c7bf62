# T.reshape and T.view on the CPU target: the same bytes with another
# shape (a global tensor and a shared tile) or another dtype (f32 bits as
# i32), checked against NumPy's reshape and view.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); b=np.load(d+'B.npy'); c=np.load(d+'C.npy'); bits=np.load(d+'Bits.npy'); print(bool((b == 2 * a.reshape(-1)).all()), bool((c == a.reshape(-1)[::-1]).all()), bool((bits == a.view(np.int32).reshape(-1)).all()))" | FileCheck %s
# CHECK: True True True

import tilelang
import tilelang.language as T


@tilelang.jit
def views(M=8, N=16):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M * N,), "float32"),
             C: T.Tensor((M * N,), "float32"), Bits: T.Tensor((M * N,), "int32")):
        with T.Kernel(1, threads=128) as bx:
            flat = T.reshape(A, (M * N,))
            for i in T.Parallel(M * N):
                B[i] = flat[i] * 2
            S = T.alloc_shared((M, N), "float32")
            T.copy(A, S)
            S_flat = T.reshape(S, (M * N,))
            for i in T.Parallel(M * N):
                C[i] = S_flat[M * N - 1 - i]
            words = T.view(A, (M * N,), "int32")
            for i in T.Parallel(M * N):
                Bits[i] = words[i]

    return main


views()

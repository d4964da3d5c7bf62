# A whole-fragment T.copy between shapes that differ only in dimensions of
# extent 1 (a [1, 32] fragment's row into a [32] one, and back), as T.copy
# allows: the CUDA target maps the dimensions that are not 1 onto each
# other (through the exchange area where the layouts differ). The CPU
# target and the sim device (the CUDA code run on the host) against NumPy.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/out/inputs/A.npy'); b=np.load('%t/out/B.npy'); print(b.shape, bool(np.abs(b - 3 * a[0]).max() < 1e-5), bool(np.abs(np.load('%t/out/C.npy') - 2 * a).max() < 1e-5))" | FileCheck %s
# CHECK: (32,) True True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s > /dev/null
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ rm -rf %t/sim && tlc-run %t/cuda --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; a=np.load('%t/sim/inputs/A.npy'); b=np.load('%t/sim/B.npy'); print(b.shape, bool(np.abs(b - 3 * a[0]).max() < 1e-5), bool(np.abs(np.load('%t/sim/C.npy') - 2 * a).max() < 1e-5))" | FileCheck %s %}

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def row_copy(N=32):

    @T.prim_func
    def main(A: T.Tensor((1, N), "float32"), B: T.Tensor((N,), "float32"),
             C: T.Tensor((1, N), "float32")):
        with T.Kernel(1, threads=32):
            row = T.alloc_fragment([1, N], "float32")
            flat = T.alloc_fragment([N], "float32")
            col_max = T.alloc_fragment([N], "float32")
            back = T.alloc_fragment([1, N], "float32")
            T.copy(A, row)
            T.reduce_max(row, col_max, dim=0)
            k = 0
            T.copy(row[k, :], flat)
            for i in T.Parallel(N):
                B[i] = flat[i] * 2.0 + col_max[i]
            T.copy(flat, back)
            for i, j in T.Parallel(1, N):
                C[i, j] = back[i, j] * 2.0

    return main


row_copy()

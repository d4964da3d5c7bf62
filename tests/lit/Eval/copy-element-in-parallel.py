# `T.copy(A[i, j], B[i, j])` of two single elements is TileLang's store
# `B[i, j] = A[i, j]` (its copy lowers two scalar BufferLoads to a
# BufferStore before any tile operation is made), so it may stand inside a
# T.Parallel: before, "T.copy cannot be used inside T.Parallel" (upstream
# test_tilelang_language_copy.py). A region copy there is still an error.
# The CPU target's B (A transposed) is checked against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.parallel
# CHECK-NOT: tile.copy
# CHECK: tile.store
# RUN: not tlc-build --check --no-source-lines %S/Inputs/copy-region-in-parallel.py 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: copy-region-in-parallel.py:{{[0-9]+}}:17: error: T.copy cannot be used inside T.Parallel
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); b=np.load(d+'B.npy'); print(bool(np.array_equal(b, a.T)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def transpose(M=64, N=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((N, M), T.float16)):
        with T.Kernel(1, threads=128):
            for i, j in T.Parallel(M, N):
                T.copy(A[i, j], B[j, i])

    return main


transpose()

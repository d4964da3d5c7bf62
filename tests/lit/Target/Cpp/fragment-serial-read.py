# Scalar code reading a fragment that T.Parallel loops partition: a tile
# scaled in a T.Parallel, then its first column summed one row at a time in
# a T.serial loop (`x[i, 0]`). Every thread reads every row, so on CUDA the
# fragment is published through the exchange area before the read. Ragged
# M (the last tile's missing rows are the zeros T.copy fills in); the CPU
# target against NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); s=np.load(d+'S.npy'); bm=16; ref=np.array([2*x[i:i+bm,0].sum() for i in range(0,x.shape[0],bm)]); print(np.abs(s-ref).max() < 1e-5, s.shape)" | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True (7,)
# CUDA: __syncthreads();  // the exchange area is free
# CUDA: exchanged{{.*}} = x[
# CUDA: __syncthreads();
# CUDA: = exchanged[((i)) * 64 + (0)];

import tilelang
import tilelang.language as T


@tilelang.jit
def first_column_sum(M, N, block_M=16, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype),
             S: T.Tensor((T.ceildiv(M, block_M),), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, N), dtype)
            acc = T.alloc_local((1,), dtype)
            T.copy(X[bx * block_M, 0], x)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] * 2
            acc[0] = 0
            for i in T.serial(block_M):
                acc[0] += x[i, 0]
            S[bx] = acc[0]

    return main


first_column_sum(100, 64)

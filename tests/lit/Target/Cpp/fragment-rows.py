# A fragment read under a T.Parallel at an index that is not a loop
# variable: row i of a [block_M, N] tile, i from an enclosing T.serial, as
# chunked-scan kernels write it (a running column sum over the rows of a
# tile). Ragged M; the CPU target against NumPy. On CUDA the tile is read
# through the exchange area (its row is spread over other threads).
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy'); bm=16; ref=np.concatenate([np.cumsum(x[i:i+bm],0) for i in range(0,x.shape[0],bm)]); print(np.abs(y-ref).max() < 1e-4, y.shape)" | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True (70, 64)
# CUDA: the exchange area is free

import tilelang
import tilelang.language as T


@tilelang.jit
def chunk_cumsum(M, N, block_M=16, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, N), dtype)
            run = T.alloc_fragment((N,), dtype)
            y_shared = T.alloc_shared((block_M, N), dtype)
            T.copy(X[bx * block_M, 0], x)
            T.clear(run)
            for i in T.serial(block_M):
                for j in T.Parallel(N):
                    run[j] += x[i, j]
                    y_shared[i, j] = run[j]
            T.copy(y_shared, Y[bx * block_M, 0])

    return main


chunk_cumsum(70, 64)

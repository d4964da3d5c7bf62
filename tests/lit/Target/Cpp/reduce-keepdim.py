# Reductions into fragments that keep the reduced dimension ([M, 1]) and
# TileLang's clear=False (fold into what dst holds), as online-softmax and
# block-pooling kernels write them: a row softmax over N in column blocks
# with running max / sum in [block_M, 1] fragments, and the mean of each
# row block. Ragged M; checked against NumPy on the CPU target.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy'); m=np.load(d+'RowMax.npy'); p=np.load(d+'Mean.npy'); e=np.exp(x-x.max(1,keepdims=True)); s=e/e.sum(1,keepdims=True); print(np.abs(y-s).max()<1e-5, np.abs(m-x.max(1)).max()==0, np.abs(p-x.mean(1)).max()<1e-5, y.shape)" | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True True True (100, 96)
# CUDA: T.reduce_max
# CUDA: T.reduce_sum

import tilelang
import tilelang.language as T


@tilelang.jit
def online_softmax(M, N, block_M=16, block_N=32, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype),
             RowMax: T.Tensor((M,), dtype), Mean: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, block_N), dtype)
            m = T.alloc_fragment((block_M, 1), dtype)
            m_prev = T.alloc_fragment((block_M, 1), dtype)
            s = T.alloc_fragment((block_M, 1), dtype)
            s_blk = T.alloc_fragment((block_M, 1), dtype)
            total = T.alloc_fragment((block_M, 1), dtype)
            T.fill(m, -T.infinity(dtype))
            T.fill(s, 0)
            T.fill(total, 0)
            for k in T.serial(T.ceildiv(N, block_N)):
                T.copy(X[bx * block_M, k * block_N], x)
                T.reduce_sum(x, total, dim=1, clear=False)
                T.copy(m, m_prev)
                T.reduce_max(x, m, dim=1, clear=False)
                for i, j in T.Parallel(block_M, block_N):
                    x[i, j] = T.exp(x[i, j] - m[i, 0])
                T.reduce_sum(x, s_blk, dim=1)
                for i in T.Parallel(block_M):
                    s[i, 0] = s[i, 0] * T.exp(m_prev[i, 0] - m[i, 0]) + s_blk[i, 0]
            for k in T.serial(T.ceildiv(N, block_N)):
                T.copy(X[bx * block_M, k * block_N], x)
                for i, j in T.Parallel(block_M, block_N):
                    x[i, j] = T.exp(x[i, j] - m[i, 0]) / s[i, 0]
                T.copy(x, Y[bx * block_M, k * block_N])
            for i in T.Parallel(block_M):
                RowMax[bx * block_M + i] = m[i, 0]
                Mean[bx * block_M + i] = total[i, 0] / N

    return main


online_softmax(100, 96)

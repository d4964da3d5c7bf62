# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: row softmax + log-sum-exp with T.exp2/T.log2, -T.infinity fill, T.reduce_max/sum.
# Shape: eager @tilelang.jit with T.const, two T.empty outputs, .compile(M=, N=).
import math

import tilelang
import tilelang.language as T


@tilelang.jit
def softmax_lse(X, block_M=4, dtype=T.float16, accum_dtype=T.float32):
    M, N = T.const("M, N")
    X: T.Tensor((M, N), dtype)
    Y = T.empty((M, N), dtype)
    LSE = T.empty((M,), accum_dtype)
    log2e = 1.0 / math.log(2.0)
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), accum_dtype)
        row_max = T.alloc_fragment((block_M,), accum_dtype)
        row_sum = T.alloc_fragment((block_M,), accum_dtype)
        T.copy(X[bx * block_M, 0], x)
        T.fill(row_max, -T.infinity(accum_dtype))
        T.reduce_max(x, row_max, dim=1, clear=False)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = T.exp2(x[i, j] * log2e - row_max[i] * log2e)
        T.reduce_sum(x, row_sum, dim=1)
        for i, j in T.Parallel(block_M, N):
            x[i, j] = x[i, j] / T.max(row_sum[i], 1e-20)
        for i in T.Parallel(block_M):
            LSE[bx * block_M + i] = T.log2(row_sum[i]) / log2e + row_max[i]
        T.copy(x, Y[bx * block_M, 0])
    return Y, LSE


kernel = softmax_lse.compile(M=2048, N=512)

# CHECK: "name":"X","kind":"tensor","shape":[2048,512],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"LSE","kind":"tensor","shape":[2048],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"x","kind":"buffer","shape":[4,512],"dtype":"float32","scope":"local.fragment","layout":"parallel · 16 regs/thread"
# CHECK: "name":"row_max","kind":"buffer","shape":[4],"dtype":"float32","scope":"local.fragment","layout":"parallel row · 4 regs/thread · rep 128"
# CHECK: "name":"row_sum","kind":"buffer","shape":[4],"dtype":"float32","scope":"local.fragment","layout":"parallel row · 4 regs/thread · rep 128"

# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group F (+A): row softmax with T.reduce_max / T.reduce_sum / T.exp2 over a
# register-resident row panel, tuned by @tilelang.autotune over a lazy jit
# factory (configs built by a helper from itertools.product); the tunable
# block size feeds a plain helper that derives the thread count.
import itertools

import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune


def softmax_configs():
    return [dict(zip(("block_M", "vec"), v)) for v in itertools.product([4, 8, 16], [4, 8])]


def threads_for(block_M, N, vec):
    lanes = max(32, min(1024, block_M * N // (vec * 8)))
    return lanes - lanes % 32


@autotune(configs=softmax_configs())
@tilelang.jit(out_idx=[-1])
def softmax(M, N, block_M, vec, dtype=T.bfloat16):
    accum_dtype = T.float32
    log2e = 1.4426950408889634
    threads = threads_for(block_M, N, vec)

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
            x = T.alloc_fragment((block_M, N), accum_dtype)
            row_max = T.alloc_fragment((block_M,), accum_dtype)
            row_sum = T.alloc_fragment((block_M,), accum_dtype)
            y = T.alloc_fragment((block_M, N), dtype)

            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.exp2(x[i, j] * log2e - row_max[i] * log2e)
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(block_M, N):
                y[i, j] = x[i, j] / row_sum[i]
            T.copy(y, Y[bx * block_M, 0])

    return main


tuned = softmax(8192, 2048)
fixed = softmax(8192, 4096, block_M=2, vec=8)

# CHECK: "instance":"softmax(8192, 2048, block_M=4, vec=4)","name":"X","kind":"tensor","shape":[8192,2048],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "instance":"softmax(8192, 2048, block_M=4, vec=4)","name":"bx","kind":"kernel","shape":[2048],{{.*}}"detail":"256 threads"
# CHECK: "instance":"softmax(8192, 2048, block_M=4, vec=4)","name":"x","kind":"buffer","shape":[4,2048],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "instance":"softmax(8192, 2048, block_M=4, vec=4)","name":"row_max","kind":"buffer","shape":[4],"dtype":"float32","scope":"local.fragment"
# CHECK: "instance":"softmax(8192, 2048, block_M=4, vec=4)","name":"y","kind":"buffer","shape":[4,2048],"dtype":"bfloat16","scope":"local.fragment"
# CHECK: "instance":"softmax(8192, 4096, block_M=2, vec=8)","name":"x","kind":"buffer","shape":[2,4096],"dtype":"float32","scope":"local.fragment"

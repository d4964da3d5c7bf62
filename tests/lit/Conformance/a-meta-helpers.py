# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A: meta-level helpers evaluated at trace time in an eager kernel:
# tilelang.cdiv, tilelang.math.next_power_of_2, T.dtype(...).bits, math.log2,
# min/max builtins, dtype comparisons, typed constants (T.float32(...)), and
# in-body T.annotate_pass_configs / T.annotate_compile_flags.
import math

import tilelang
import tilelang.language as T


@tilelang.jit
def bucket_norm(X, dtype: T.dtype = T.float16, max_threads: int = 256):
    B, L = T.const("B, L")
    X: T.Tensor((B, L), dtype)
    Y = T.empty((B, L), dtype)

    elem_bits = T.dtype(dtype).bits
    vec = 128 // elem_bits
    block_L = min(tilelang.math.next_power_of_2(L), 4096)
    threads = max(32, min(max_threads, block_L // vec))
    tiles = tilelang.cdiv(L, block_L)
    levels = int(math.log2(threads))
    inv_len = 1.0 / L
    accum_dtype = T.float32 if dtype != T.float32 else T.float64
    assert (1 << levels) == threads, "threads must be a power of two"

    T.annotate_pass_configs({tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER: True})
    T.annotate_compile_flags(["-O3"])

    with T.Kernel(B, threads=threads) as row:
        x = T.alloc_fragment((block_L,), accum_dtype)
        total = T.alloc_fragment((1,), accum_dtype)
        for t in T.serial(tiles):
            for i in T.Parallel(block_L):
                x[i] = T.if_then_else(t * block_L + i < L, T.cast(X[row, t * block_L + i], accum_dtype), T.float32(0))
            T.reduce_sum(x, total, dim=0)
            for i in T.Parallel(block_L):
                if t * block_L + i < L:
                    Y[row, t * block_L + i] = T.cast(x[i] - total[0] * inv_len, dtype)

    return Y


kernel = bucket_norm.compile(B=64, L=3000)

# CHECK: "name":"X","kind":"tensor","shape":[64,3000],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"Y","kind":"tensor","shape":[64,3000],"dtype":"float16","scope":"global"
# CHECK: "name":"row","kind":"kernel","shape":[64],{{.*}}"detail":"256 threads"
# CHECK: "name":"x","kind":"buffer","shape":[4096],"dtype":"float32","scope":"local.fragment","layout":"parallel{{[^"]*}}"
# CHECK: "name":"total","kind":"buffer","shape":[1],"dtype":"float32","scope":"local.fragment"

# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A (+F): eager @tilelang.jit with T.const shape symbols, in-body tensor
# annotations, two T.empty outputs returned as a tuple, compile-time kwargs and
# .compile(...) binding the consts by name; per-row absmax int8 quantisation.
import tilelang
import tilelang.language as T


@tilelang.jit
def quantize_rows(X, block_M: int = 32, block_N: int = 256, threads: int = 128):
    M, N = T.const("M, N")
    in_dtype = T.bfloat16
    accum_dtype = T.float32

    X: T.Tensor((M, N), in_dtype)
    Q = T.empty((M, N), T.int8)
    S = T.empty((M,), accum_dtype)

    with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
        x_shared = T.alloc_shared((block_M, block_N), in_dtype)
        x_frag = T.alloc_fragment((block_M, block_N), accum_dtype)
        amax = T.alloc_fragment((block_M,), accum_dtype)
        amax_tile = T.alloc_fragment((block_M,), accum_dtype)
        q_frag = T.alloc_fragment((block_M, block_N), T.int8)

        T.fill(amax, 1e-6)
        for t in T.serial(T.ceildiv(N, block_N)):
            T.copy(X[bx * block_M, t * block_N], x_shared)
            T.copy(x_shared, x_frag)
            T.reduce_absmax(x_frag, amax_tile, dim=1)
            for i in T.Parallel(block_M):
                amax[i] = T.max(amax[i], amax_tile[i])

        for t in T.serial(T.ceildiv(N, block_N)):
            T.copy(X[bx * block_M, t * block_N], x_shared)
            for i, j in T.Parallel(block_M, block_N):
                q_frag[i, j] = T.cast(T.clamp(T.round(T.cast(x_shared[i, j], accum_dtype) * 127.0 / amax[i]), -127.0, 127.0), T.int8)
            T.copy(q_frag, Q[bx * block_M, t * block_N])

        for i in T.Parallel(block_M):
            S[bx * block_M + i] = amax[i] / 127.0

    return Q, S


kernel = quantize_rows.compile(M=4096, N=2048, block_M=64)

# CHECK: "name":"X","kind":"tensor","shape":[4096,2048],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"Q","kind":"tensor","shape":[4096,2048],"dtype":"int8","scope":"global"
# CHECK: "name":"S","kind":"tensor","shape":[4096],"dtype":"float32","scope":"global"
# CHECK: "name":"bx","kind":"kernel","shape":[64],{{.*}}"detail":"128 threads"
# CHECK: "name":"x_shared","kind":"buffer","shape":[64,256],"dtype":"bfloat16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"x_frag","kind":"buffer","shape":[64,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 128 regs/thread"
# CHECK: "name":"amax","kind":"buffer","shape":[64],"dtype":"float32","scope":"local.fragment"
# CHECK: "name":"q_frag","kind":"buffer","shape":[64,256],"dtype":"int8","scope":"local.fragment"

# The CUDA code's shared-memory accesses (a hint, not a problem):
# DIAG: 30:13: remark: 2-way bank conflict on x_shared (2-byte ld.shared)

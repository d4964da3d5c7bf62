# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group E (+K): user layouts without swizzle arithmetic. A T.Layout lambda
# that rotates each row of a shared staging tile, T.Fragment with
# forward_thread_fn + forward_index_fn pinning a row-per-thread register tile,
# and a plain helper returning the T.Fragment; row-wise RMS scaling.
import tilelang
import tilelang.language as T


def row_per_thread(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)


@tilelang.jit(out_idx=[-1])
def rms_rows(M, N=64, block_M=128, eps=1e-6, dtype=T.float16):
    accum_dtype = T.float32

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=block_M) as bx:
            stage = T.alloc_shared((block_M, N), dtype)
            rows = T.alloc_fragment((block_M, N), accum_dtype)
            ssq = T.alloc_fragment((block_M,), accum_dtype)
            T.annotate_layout({
                stage: T.Layout((block_M, N), lambda i, j: [i, (j + i) % N]),
                rows: row_per_thread(block_M, N),
            })
            T.copy(X[bx * block_M, 0], stage)
            T.copy(stage, rows)
            T.clear(ssq)
            for i, j in T.Parallel(block_M, N):
                ssq[i] += rows[i, j] * rows[i, j]
            for i, j in T.Parallel(block_M, N):
                rows[i, j] = rows[i, j] * T.rsqrt(ssq[i] / N + eps)
            T.copy(rows, Y[bx * block_M, 0])

    return main


kernel = rms_rows(16384)

# CHECK: "name":"X","kind":"tensor","shape":[16384,64],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[128],{{.*}}"detail":"128 threads"
# CHECK: "name":"stage","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"rows","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"fragment · 64 regs/thread"
# CHECK: "name":"ssq","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"fragment row · 1 reg/thread"

# The CUDA code's shared-memory accesses (a hint, not a problem):
# DIAG: 30:13: remark: 32-way bank conflict on stage (2-byte ld.shared)

# No error or warning; the fragment-exchange remarks describe the CUDA code.
# RUN: tlc-build --check %s 2>&1 | not grep -E "(error|warning):"
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group F: tile scans. T.cumsum along dim=1 on a shared tile (in place),
# a reverse cumsum into a separate fragment destination, and a carried
# per-row running offset across column blocks (chunked prefix sums).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def chunk_cumsum(M, N, block_M=16, block_N=128, dtype=T.float32):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), dtype),
        Fwd: T.Tensor((M, N), dtype),
        Rev: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x_shared = T.alloc_shared((block_M, block_N), dtype)
            x_frag = T.alloc_fragment((block_M, block_N), dtype)
            rev_frag = T.alloc_fragment((block_M, block_N), dtype)
            chunk_sum = T.alloc_fragment((block_M,), dtype)
            carry = T.alloc_fragment((block_M,), dtype)
            T.clear(carry)
            for c in T.serial(T.ceildiv(N, block_N)):
                T.copy(X[bx * block_M, c * block_N], x_shared)
                T.copy(x_shared, x_frag)
                T.reduce_sum(x_frag, chunk_sum, dim=1)
                T.cumsum(x_frag, rev_frag, dim=1, reverse=True)
                T.cumsum(x_shared, dim=1)
                T.copy(x_shared, x_frag)
                for i, j in T.Parallel(block_M, block_N):
                    x_frag[i, j] += carry[i]
                for i in T.Parallel(block_M):
                    carry[i] += chunk_sum[i]
                T.copy(x_frag, Fwd[bx * block_M, c * block_N])
                T.copy(rev_frag, Rev[bx * block_M, c * block_N])

    return main


kernel = chunk_cumsum(1024, 1024)

# CHECK: "name":"X","kind":"tensor","shape":[1024,1024],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[64],{{.*}}"detail":"128 threads"
# CHECK: "name":"x_shared","kind":"buffer","shape":[16,128],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"x_frag","kind":"buffer","shape":[16,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 16 regs/thread"
# CHECK: "name":"rev_frag","kind":"buffer","shape":[16,128],"dtype":"float32","scope":"local.fragment"
# CHECK: "name":"chunk_sum","kind":"buffer","shape":[16],"dtype":"float32","scope":"local.fragment","layout":"parallel row · 4 regs/thread · rep 32"
# CHECK: "name":"carry","kind":"buffer","shape":[16],"dtype":"float32","scope":"local.fragment"

# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group B (+G): thread-explicit SIMT code. A 2-D thread block (threads=[32, 8])
# gives one warp per row; T.get_thread_binding(0/1), T.get_block_binding,
# per-thread T.alloc_local accumulators and a T.shfl_xor butterfly compute
# row L2 norms.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def row_norms(M, N, rows_per_block=8, dtype=T.float32):
    lanes = 32
    per_lane = N // lanes

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Out: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, rows_per_block), threads=[lanes, rows_per_block]) as bx:
            lane = T.get_thread_binding(0)
            warp = T.get_thread_binding(1)
            block = T.get_block_binding(0)
            acc = T.alloc_local((1,), dtype)
            vals = T.alloc_local((per_lane,), dtype)
            row = block * rows_per_block + warp

            acc[0] = 0
            if row < M:
                for c in T.unroll(per_lane):
                    vals[c] = X[row, c * lanes + lane]
                for c in T.serial(per_lane):
                    acc[0] += vals[c] * vals[c]
            for s in T.unroll(5):
                acc[0] += T.shfl_xor(acc[0], 16 >> s)
            if lane == 0 and row < M:
                Out[row] = T.sqrt(acc[0])

    return main


kernel = row_norms(1000, 512)

# CHECK: "name":"X","kind":"tensor","shape":[1000,512],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[125],{{.*}}"detail":"256 threads"
# CHECK: "name":"acc","kind":"buffer","shape":[1],"dtype":"float32","scope":"local","layout":null
# CHECK: "name":"vals","kind":"buffer","shape":[16],"dtype":"float32","scope":"local"

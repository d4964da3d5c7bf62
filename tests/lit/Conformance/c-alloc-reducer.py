# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group C (+F): first-class reducers. T.alloc_reducer(op="sum"/"max") with
# T.reducer_init, T.reducer_update inside T.Parallel and an out-of-place
# T.finalize_reducer give column sums and column maxima of a row panel.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def column_stats(M, N, block_M=64, block_N=128, dtype=T.float32):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), dtype),
        ColSum: T.Tensor((N,), dtype),
        ColMax: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            tile = T.alloc_fragment((block_M, block_N), dtype)
            sums = T.alloc_reducer((block_N,), dtype, op="sum")
            maxes = T.alloc_reducer((block_N,), dtype, op="max")
            sum_out = T.alloc_fragment((block_N,), dtype)
            max_out = T.alloc_fragment((block_N,), dtype)

            T.reducer_init(sums)
            T.reducer_init(maxes)
            for r in T.serial(T.ceildiv(M, block_M)):
                T.copy(X[r * block_M, bx * block_N], tile)
                for i, j in T.Parallel(block_M, block_N):
                    T.reducer_update(sums[j], tile[i, j])
                    T.reducer_update(maxes[j], tile[i, j])
            T.finalize_reducer(sums, sum_out)
            T.finalize_reducer(maxes, max_out)
            T.copy(sum_out, ColSum[bx * block_N])
            T.copy(max_out, ColMax[bx * block_N])

    return main


kernel = column_stats(4096, 1024)

# CHECK: "name":"X","kind":"tensor","shape":[4096,1024],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[8],{{.*}}"detail":"128 threads"
# CHECK: "name":"tile","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 64 regs/thread"
# CHECK: "name":"sums","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.reducer","layout":null
# CHECK: "name":"sum_out","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment"

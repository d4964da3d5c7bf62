# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: doubly nested lazy factory, prim_func under `if T.dtype(dtype).bits <= 16:`, module
# globals defined after the factory. G/L: T.if_then_else, -T.infinity, T.reduce_max.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def row_argmax(M, N, dtype=T.bfloat16):
    def kernel_func(block_M, block_N, threads):
        if T.dtype(dtype).bits <= 16:
            accum = T.float32

            @T.prim_func
            def main(X: T.Tensor((M, N), dtype), Val: T.Tensor((M,), accum), Idx: T.Tensor((M,), T.int32)):
                with T.Kernel(T.ceildiv(M, block_M), threads=threads) as bx:
                    x = T.alloc_fragment((block_M, block_N), accum)
                    best = T.alloc_fragment((block_M,), accum)
                    best_idx = T.alloc_fragment((block_M,), T.int32)
                    tile_max = T.alloc_fragment((block_M,), accum)
                    T.fill(best, -T.infinity(accum))
                    T.fill(best_idx, -1)
                    for ko in T.serial(T.ceildiv(N, block_N)):
                        for i, j in T.Parallel(block_M, block_N):
                            col = ko * block_N + j
                            x[i, j] = T.if_then_else(col < N, T.cast(X[bx * block_M + i, col], accum), -T.infinity(accum))
                        T.reduce_max(x, tile_max, dim=1)
                        for i in T.Parallel(block_M):
                            if tile_max[i] > best[i]:
                                best[i] = tile_max[i]
                                best_idx[i] = ko
                    for i in T.Parallel(block_M):
                        Val[bx * block_M + i] = best[i]
                        Idx[bx * block_M + i] = best_idx[i] * block_N
            return main
        else:
            raise ValueError("this kernel stages 16-bit inputs only")

    return kernel_func(TOPK_BLOCK, N // ROW_PAD, 128)


TOPK_BLOCK = 16
ROW_PAD = 4

kernel = row_argmax(8192, 1024)

# CHECK: "name":"X","kind":"tensor","shape":[8192,1024],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"Idx","kind":"tensor","shape":[8192],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"x","kind":"buffer","shape":[16,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "name":"best","kind":"buffer","shape":[16],"dtype":"float32","scope":"local.fragment","layout":"parallel row · 8 regs/thread · rep 64"
# CHECK: "name":"best_idx","kind":"buffer","shape":[16],"dtype":"int32","scope":"local.fragment","layout":"parallel row · 8 regs/thread · rep 64"
# CHECK: "name":"tile_max","kind":"buffer","shape":[16],"dtype":"float32","scope":"local.fragment","layout":"parallel row · 8 regs/thread · rep 64"

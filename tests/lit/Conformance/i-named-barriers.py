# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# I: T.sync_threads(), named barriers T.sync_threads(id, n) / T.named_barrier_arrive,
# T.sync_warp, T.tvm_storage_sync. Shape: lazy factory + @T.macro (block prefix sum).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def block_scan(M, block=256):
    group = 128
    ready_bar = 1
    done_bar = 2

    @T.macro
    def warp_inclusive_scan(buf: T.SharedBuffer((block,), T.int32), tx):
        lane = tx % 32
        for s in T.unroll(5):
            d = 1 << s
            tmp = T.if_then_else(lane >= d, buf[tx - d], 0)
            T.sync_warp()
            buf[tx] = buf[tx] + tmp
            T.sync_warp()

    @T.prim_func
    def main(X: T.Tensor((M,), T.int32), Y: T.Tensor((M,), T.int32)):
        with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
            tx = T.get_thread_binding()
            vals = T.alloc_shared((block,), T.int32)
            warp_sums = T.alloc_shared((block // 32,), T.int32)
            vals[tx] = T.if_then_else(bx * block + tx < M, X[bx * block + tx], 0)
            T.sync_threads()
            warp_inclusive_scan(vals, tx)
            if tx % 32 == 31:
                warp_sums[tx // 32] = vals[tx]
            T.tvm_storage_sync("shared")
            if tx < group:
                # first warp group scans the warp totals, then releases group 1
                if tx == 0:
                    for w in T.serial(1, block // 32):
                        warp_sums[w] = warp_sums[w] + warp_sums[w - 1]
                T.named_barrier_arrive(ready_bar, block)
                T.sync_threads(done_bar, group)
            else:
                T.sync_threads(ready_bar, block)
            offset = T.if_then_else(tx >= 32, warp_sums[T.max(tx // 32 - 1, 0)], 0)
            if bx * block + tx < M:
                Y[bx * block + tx] = vals[tx] + offset - T.if_then_else(bx * block + tx < M, X[bx * block + tx], 0)

    return main


kernel = block_scan(1 << 20)

# CHECK: "name":"X","kind":"tensor","shape":[1048576],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"vals","kind":"buffer","shape":[256],"dtype":"int32","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"warp_sums","kind":"buffer","shape":[8],"dtype":"int32","scope":"shared.dyn","layout":"linear"

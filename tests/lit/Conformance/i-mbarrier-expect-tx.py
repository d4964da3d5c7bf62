# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# I: T.mbarrier_expect_tx / T.mbarrier_arrive_expect_tx with T.tma_gather4(_bytes),
# T.shuffle_elect, wait_parity. Shape: lazy factory with a dict target (sm_100a).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target={"kind": "cuda", "arch": "sm_100a"})
def embedding_gather4(V, D, num, fused_arrive=False, dtype=T.bfloat16):
    @T.prim_func
    def main(Table: T.Tensor((V, D), dtype), Ids: T.Tensor((num,), T.int32), Out: T.Tensor((num, D), dtype)):
        with T.Kernel(T.ceildiv(num, 4), threads=128) as bx:
            rows = T.alloc_shared((4, D), dtype)
            landed = T.alloc_barrier(1)
            nbytes = T.tma_gather4_bytes(D, dtype)
            r0 = Ids[T.min(bx * 4 + 0, num - 1)]
            r1 = Ids[T.min(bx * 4 + 1, num - 1)]
            r2 = Ids[T.min(bx * 4 + 2, num - 1)]
            r3 = Ids[T.min(bx * 4 + 3, num - 1)]
            if T.shuffle_elect(0):
                if fused_arrive:
                    T.mbarrier_arrive_expect_tx(landed[0], nbytes)
                else:
                    T.mbarrier_expect_tx(landed[0], nbytes)
                    T.mbarrier_arrive(landed[0])
                T.tma_gather4(Table, rows, 0, [r0, r1, r2, r3], barrier=landed[0])
            T.mbarrier_wait_parity(landed[0], 0)
            for i, j in T.Parallel(4, D):
                if bx * 4 + i < num:
                    Out[bx * 4 + i, j] = rows[i, j]

    return main


kernel = embedding_gather4(128000, 256, 4096)
kernel_fused = embedding_gather4(128000, 256, 4096, fused_arrive=True)

# CHECK: "name":"Table","kind":"tensor","shape":[128000,256],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"rows","kind":"buffer","shape":[4,256],"dtype":"bfloat16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"landed","kind":"buffer","shape":[1],"dtype":"uint64","scope":"shared.barrier","layout":null
# CHECK: "name":"rows","kind":"buffer","shape":[4,256],"dtype":"bfloat16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"landed","kind":"buffer","shape":[1],"dtype":"uint64","scope":"shared.barrier","layout":null

# A pipelined GEMM whose warp-specialisation knobs the lit tests set with
# -D: reg_alloc=False calls T.disable_warp_group_reg_alloc(), producer /
# consumer > 0 ask for those setmaxnreg counts.

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=256, reg_alloc=True, producer=0, consumer=0, threads=128, block_N=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        C: T.Tensor((M, N), T.float16),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, 128), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((128, 64), T.float16)
            B_shared = T.alloc_shared((64, block_N), T.float16)
            C_local = T.alloc_fragment((128, block_N), T.float32)
            if not reg_alloc:
                T.disable_warp_group_reg_alloc()
            if producer > 0:
                T.annotate_producer_reg_dealloc(producer)
            if consumer > 0:
                T.annotate_consumer_reg_alloc(consumer)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, 64), num_stages=2):
                T.copy(A[by * 128, ko * 64], A_shared)
                T.copy(B[ko * 64, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * 128, bx * block_N])

    return main

# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# A producer/consumer GEMM in the older spelling: a list of mbarriers by
# number (T.create_list_of_mbarrier, T.get_mbarrier, T.mbarrier_wait_parity
# / T.mbarrier_arrive), the thread index compared by hand (`if tx >= 128:`
# producer, `else:` consumer) inside the K loop, one stage of whole shared
# tiles (on sm_90a the consumer's gemm is wgmma over its warp group).
#
# CHECK: uint64_t *mbarriers = reinterpret_cast<uint64_t *>(smem + {{[0-9]+}});
# CHECK-NEXT: if (threadIdx.x == 0) {
# CHECK-NEXT: tlc::cuda::mbarrierInit(&mbarriers[0], 128);
# CHECK-NEXT: tlc::cuda::mbarrierInit(&mbarriers[1], 128);
# The K loop holds only the two roles' branches: no block barrier in it.
# CHECK: for (int ko = 0;
# CHECK-NOT: __syncthreads
# CHECK: if ({{.*}}) {
# CHECK-NEXT: // threads [128, 256) (128): tile operations are partitioned over them
# CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
# CHECK: tlc::cuda::mbarrierWait((mbarriers + (int)(1)), (uint32_t)({{.*}}) & 1u);
# The copies' ordinary stores are read by wgmma (the async proxy) after the
# consumer's wait: each writer fences before it arrives.
# CHECK: tlc::cuda::fenceProxyAsync();
# CHECK-NEXT: tlc::cuda::mbarrierArrive((mbarriers + (int)(0)));
# CHECK: } else {
# CHECK-NEXT: // threads [0, 128) (128): tile operations are partitioned over them
# CHECK: tlc::cuda::mbarrierWait((mbarriers + (int)(0)), (uint32_t)({{.*}}) & 1u);
# CHECK: T.gemm (wgmma.mma_async)
# CHECK: tlc::cuda::wgmmaWait<0>();
# CHECK: tlc::cuda::mbarrierArrive((mbarriers + (int)(1)));
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def ws_gemm_legacy(M, N, K, block_M=64, block_N=64, block_K=32,
                   dtype="float16", accum_dtype="float"):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), dtype)
            B_s = T.alloc_shared((block_K, block_N), dtype)
            C_l = T.alloc_fragment((block_M, block_N), accum_dtype)
            tx = T.get_thread_binding()
            # barrier 0: the tiles are loaded; barrier 1: the gemm read them
            T.create_list_of_mbarrier(128, 128)

            if tx < 128:
                T.clear(C_l)
            for ko in range(T.ceildiv(K, block_K)):
                if tx >= 128:
                    T.mbarrier_wait_parity(1, (ko + 1) % 2)
                    T.copy(A[by * block_M, ko * block_K], A_s)
                    T.copy(B[ko * block_K, bx * block_N], B_s)
                    T.mbarrier_arrive(T.get_mbarrier(0))
                else:
                    T.mbarrier_wait_parity(T.get_mbarrier(0), ko % 2)
                    T.gemm(A_s, B_s, C_l)
                    T.mbarrier_arrive(1)
            if tx < 128:
                T.copy(C_l, C[by * block_M, bx * block_N])

    return main


ws_gemm_legacy(200, 136, 100)

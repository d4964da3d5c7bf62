# 2-CTA tcgen05 gemms on the CPU target, in the style of the public
# gemm_tcgen5mma_ws (gemm_2cta): clusters of 2 blocks, each holding its
# 128 rows of A and half of B's columns; the leader's MMA warp issues
# T.tcgen05_gemm(..., use_2cta=True), which computes M = 256 over the pair
# (each block's C in tensor memory is its A times both blocks' B halves,
# so C holds twice B's columns), and commits to the barrier at the same
# offset in both blocks (arrive_2cta). The producers of both blocks arrive
# on the leader's `loaded` barrier (T.mbarrier_arrive(bar, 0)); the
# leader's commit releases both blocks' `consumed`. The product is
# computed twice into the same tensor memory, the second time from a
# clear_accum, which must clear both blocks' accumulators (the second
# block's C would otherwise be 2 A B). Ragged K; checked against NumPy in
# float64.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# CPP: tlc::cpu::launchClusters(st, "{{.*}}", 4, 2, 1, 2, 1, 1,
# CPP: clear_accum of a 2-CTA gemm: both blocks' accumulators
# CPP: tlc::cpu::gemm<float>(tlc_a, tlc_b, tlc::cpu::region(tlc_c, {0, tlc_h * 64}, {128, 64}), 128, 64,
# RUN: tlc-run %t/cpu --kernel=gemm_2cta --seed 3 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); r=a @ b; print(c.shape, bool(np.allclose(c, r, 1e-4, 1e-4)), float(np.abs(c - r).max()) < 1e-3)" | FileCheck %s
# CHECK: (512, 256) True True
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_2cta(A, B, block_M=128, block_N=128, block_K=64, num_stages=2):
    M, N, K = T.const("M, N, K")
    k_iters = T.ceildiv(K, block_K)
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C = T.empty((M, N), T.float32)
    with T.ClusterKernel(T.ceildiv(M, block_M), T.ceildiv(N, block_N), threads=128,
                         cluster_dims=2) as (bx, by):
        A_shared = T.alloc_shared((num_stages, block_M, block_K), T.float16)
        B_shared = T.alloc_shared((num_stages, block_K, block_N // 2), T.float16)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        loaded = T.alloc_cluster_barrier([32 * 2] * num_stages)
        consumed = T.alloc_cluster_barrier([1] * num_stages)
        tmem_full = T.alloc_barrier([1])
        tx = T.get_thread_binding()
        cta_id = T.block_rank_in_cluster()
        T.assume(cta_id < 2)
        if tx < 32:
            for kk in T.serial(2 * k_iters):
                k = kk % k_iters
                T.mbarrier_wait_parity(consumed[kk % num_stages], ((kk // num_stages) & 1) ^ 1)
                T.copy(A[bx * block_M, k * block_K], A_shared[kk % num_stages, :, :])
                T.copy(B[k * block_K, (by * 2 + cta_id) * (block_N // 2)], B_shared[kk % num_stages, :, :])
                T.mbarrier_arrive(loaded[kk % num_stages], 0)
        elif cta_id == 0 and tx < 64:
            for kk in T.serial(2 * k_iters):
                T.mbarrier_wait_parity(loaded[kk % num_stages], (kk // num_stages) & 1)
                T.tcgen05_gemm(
                    A_shared[kk % num_stages, :, :],
                    B_shared[kk % num_stages, :, :],
                    C_tmem,
                    mbar=consumed[kk % num_stages],
                    clear_accum=kk % k_iters == 0,
                    use_2cta=True,
                )
            T.tcgen05_mma_arrive(tmem_full, arrive_2cta=True)
        T.mbarrier_wait_parity(tmem_full, 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[bx * block_M, by * block_N])
    return C


def main():
    import torch
    gemm_2cta(torch.randn(512, 200, dtype=torch.float16), torch.randn(200, 256, dtype=torch.float16))


if __name__ == "__main__":
    main()

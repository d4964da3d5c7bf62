import tilelang
import tilelang.language as T


@tilelang.jit
def mxfp8_gemm(A, B, SFA, SFB, block_M=128, block_N=128, block_K=128, num_stages=2,
               sf_granularity_k=128):
    M, N, K = T.const("M, N, K")
    k_iters = T.ceildiv(K, block_K)
    sf_load_period = sf_granularity_k * 4 // block_K
    A: T.Tensor[[M, K], T.float8_e4m3fn]
    B: T.Tensor[[K, N], T.float8_e4m3fn]
    SFA: T.Tensor[[M, T.ceildiv(K, sf_granularity_k)], "uint8"]
    SFB: T.Tensor[[N, T.ceildiv(K, sf_granularity_k)], "uint8"]
    C = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, block_M), T.ceildiv(N, block_N), threads=128) as (bx, by):
        A_shared = T.alloc_shared((num_stages, block_M, block_K), T.float8_e4m3fn)
        B_shared = T.alloc_shared((num_stages, block_K, block_N), T.float8_e4m3fn)
        SFA_shared = T.alloc_shared((num_stages, block_M, 4), "uint8")
        SFB_shared = T.alloc_shared((num_stages, block_N, 4), "uint8")
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        SFA_tmem = T.alloc_tmem([block_M, block_M // 128 * 4], "uint8")
        SFB_tmem = T.alloc_tmem([block_M, block_N // 128 * 4], "uint8")
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        loaded = T.alloc_barrier([32] * num_stages)
        consumed = T.alloc_barrier([1] * num_stages)
        tmem_full = T.alloc_barrier([1])
        tx = T.get_thread_binding()
        if tx < 32:
            for k in T.serial(k_iters):
                T.mbarrier_wait_parity(consumed[k % num_stages], ((k // num_stages) & 1) ^ 1)
                T.copy(A[bx * block_M, k * block_K], A_shared[k % num_stages, :, :])
                T.copy(B[k * block_K, by * block_N], B_shared[k % num_stages, :, :])
                if k % sf_load_period == 0:
                    sf_k_idx = k // sf_load_period
                    T.copy(SFA[bx * block_M:(bx + 1) * block_M, sf_k_idx * 4:(sf_k_idx + 1) * 4],
                           SFA_shared[k % num_stages, :, :])
                    T.copy(SFB[by * block_N:(by + 1) * block_N, sf_k_idx * 4:(sf_k_idx + 1) * 4],
                           SFB_shared[k % num_stages, :, :])
                T.mbarrier_arrive(loaded[k % num_stages])
        elif tx < 64:
            for k in T.serial(k_iters):
                T.mbarrier_wait_parity(loaded[k % num_stages], (k // num_stages) & 1)
                if k % sf_load_period == 0:
                    T.copy(SFA_shared[k % num_stages, :, :], SFA_tmem)
                    T.copy(SFB_shared[k % num_stages, :, :], SFB_tmem)
                T.sync_warp()
                T.tcgen05_gemm_blockscaled(
                    A_shared[k % num_stages, :, :], B_shared[k % num_stages, :, :], C_tmem,
                    SFA_tmem, SFB_tmem, mbar=consumed[k % num_stages], clear_accum=k == 0,
                    sf_a_id=k % sf_load_period, sf_b_id=k % sf_load_period)
            T.tcgen05_mma_arrive(tmem_full)
        T.mbarrier_wait_parity(tmem_full, 0)
        T.sync_threads()
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[bx * block_M, by * block_N])
    return C


def main():
    import torch
    a = torch.randn(200, 640, dtype=torch.float16).to(torch.float8_e4m3fn)
    b = torch.randn(640, 136, dtype=torch.float16).to(torch.float8_e4m3fn)
    sfa = torch.randint(122, 132, (200, 5), dtype=torch.uint8)
    sfb = torch.randint(122, 132, (136, 5), dtype=torch.uint8)
    mxfp8_gemm(a, b, sfa, sfb)


if __name__ == "__main__":
    main()

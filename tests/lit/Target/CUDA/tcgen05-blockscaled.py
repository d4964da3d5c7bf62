# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel=mxfp8_gemm --seed 5 --fill 'SFA=randint(120,134)' --fill 'SFB=randint(120,134)' --save %t/run > /dev/null
# RUN: %python %S/Inputs/mxfp8_gemm_check.py %t/run | FileCheck %s --check-prefix=REF
# RUN: tlc-run %t/cpu --kernel=mxfp8_gemm_1 --seed 6 --fill 'SFA=randint(120,134)' --fill 'SFB=randint(120,134)' --save %t/run2 > /dev/null
# RUN: %python %S/Inputs/mxfp8_gemm_check.py %t/run2 | FileCheck %s --check-prefix=REF
# REF: ok
# REF-NOT: MISMATCH
#
# Block-scaled MXFP8 GEMM on Blackwell in the style of the public
# gemm_sm100/gemm_mxfp8_blockscaled_1d1d example: a TMA-less producer
# warp loads e4m3 A [M, K] and B [K, N] stages and, every four K blocks,
# four E8M0 scale factors a row of A and of B; the MMA warp copies the
# scale factors to tensor memory (T.copy shared -> tensor memory: the
# per-warp transpose and tcgen05.cp .32x128b.warpx4) and issues
# T.tcgen05_gemm_blockscaled with sf_a_id = sf_b_id = k % 4, one scale
# factor per 128 K. There is no Blackwell GPU here and the sim device does
# not simulate tcgen05: the CUDA code is checked as text and by nvcc
# -arch=sm_100a (tcgen05-gemm-nvcc.test); the CPU target runs the program
# at ragged sizes (200 x 136 x 640 with block_N 128 and 200 x 264 x 640
# with block_N 256: M and N not multiples of the tiles, five K blocks, the
# last of a second scale-factor load) against NumPy, which scales each
# 128-wide K block by 2^(e - 127).
#
# Tensor memory: C 128 columns, then one 32-bit column an element of the
# [128, 4] uint8 scale-factor tiles (four factors of a row in a column),
# 136 in all, allocated as 256.
#
# The instruction descriptor, from the PTX ISA's table for the block-scaled
# kinds (bits 4-5 B scale factor id, 7-9 A type E4M3 0, 10-12 B type E4M3
# 0, 15 A K-major 0, 16 B MN-major 1 (B [K, N]), 17-22 N >> 3, 23 scale
# type UE8M0 1, 24-28 M >> 4, 29-30 A scale factor id):
#   1 << 16 | (128 >> 3) << 17 | 1 << 23 | (128 >> 4) << 24
#   = 0x10000 | 0x200000 | 0x800000 | 0x8000000 = 0x08A10000,
#   or-ed with sf_a_id << 29 and sf_b_id << 4 at run time.
# The shared memory descriptors: A K-major, 128-byte swizzle:
#   2 << 61 | 1 << 46 | (1024 >> 4) << 32 | (16 >> 4) << 16
#   = 0x4000404000010000, + 32 bytes >> 4 = 2 a K step;
# B MN-major, 128-byte swizzle, one 128-column panel of 128 K rows
# (LBO = the panel, 128 x 128 = 16384 bytes; SBO 8 rows of 128 bytes):
#   2 << 61 | 1 << 46 | (1024 >> 4) << 32 | (16384 >> 4) << 16
#   = 0x4000404004000000, + 32 rows x 128 bytes = 4096 >> 4 = 256 a K step;
# the scale factors (tcgen05.cp source: 32 rows of 16 bytes, no swizzle,
# 8-row core matrices 128 bytes apart: SBO 128 >> 4 = 8, LBO unused):
#   1 << 46 | 8 << 32 = 0x0000400800000000.
#
# CHECK-LABEL: mxfp8_gemm_kernel(
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 256);
# CHECK: const uint32_t C_tmem = {{.*}} + 0;
# CHECK: const uint32_t SFA_tmem = {{.*}} + 128;
# CHECK: const uint32_t SFB_tmem = {{.*}} + 132;
# CHECK: tlc::cuda::fenceProxyAsync();
# CHECK-NEXT: tlc::cuda::mbarrierArrive(&loaded[
# CHECK: if (tid < 32) {
# CHECK-NEXT: uint32_t *const [[W:sfWords[_0-9]*]] = reinterpret_cast<uint32_t *>((SFA_shared + (({{.*}}) * 128 + 0) * 4 + 0));
# CHECK-NEXT: tlc::cuda::sfWarpTranspose([[W]], 1, tid);
# CHECK-NEXT: tlc::cuda::fenceProxyAsync();
# CHECK-NEXT: __syncwarp();
# CHECK-NEXT: if (tid == 0) {
# CHECK-NEXT: tlc::cuda::tcgen05CopyWarpx4(SFA_tmem + 0, tlc::cuda::tcgen05SmemDescriptor([[W]] + 0, 0x0000400800000000ull));
# CHECK: tlc::cuda::tcgen05CopyWarpx4(SFB_tmem + 0,
# CHECK: const uint64_t [[A:aDesc[_0-9]*]] = tlc::cuda::tcgen05SmemDescriptor((A_shared + tlc::cuda::panelSwizzledIndex<8, 16, 128, 128>({{.*}}, 0, 0)), 0x4000404000010000ull);
# CHECK-NEXT: const uint64_t [[B:bDesc[_0-9]*]] = tlc::cuda::tcgen05SmemDescriptor((B_shared + tlc::cuda::panelSwizzledIndex<8, 16, 128, 128>({{.*}}, 0, 0)), 0x4000404004000000ull);
# CHECK-NEXT: const uint32_t [[I:idesc[_0-9]*]] = 0x08a10000u | ((uint32_t)({{.*}}) & 3u) << 29 | ((uint32_t)({{.*}}) & 3u) << 4;
# CHECK: tlc::cuda::tcgen05MmaBlockScaledSS(C_tmem, [[A]] + 0, [[B]] + 0, [[I]], SFA_tmem, SFB_tmem, ({{.*}}) ? 0u : 1u);
# CHECK-NEXT: tlc::cuda::tcgen05MmaBlockScaledSS(C_tmem, [[A]] + 2, [[B]] + 256, [[I]], SFA_tmem, SFB_tmem, 1u);
# CHECK-NEXT: tlc::cuda::tcgen05MmaBlockScaledSS(C_tmem, [[A]] + 4, [[B]] + 512, [[I]], SFA_tmem, SFB_tmem, 1u);
# CHECK-NEXT: tlc::cuda::tcgen05MmaBlockScaledSS(C_tmem, [[A]] + 6, [[B]] + 768, [[I]], SFA_tmem, SFB_tmem, 1u);
# CHECK-NEXT: tlc::cuda::tcgen05Commit(&consumed[
# block_N = 256: B's 256 rows of scale factors are two 128-row groups,
# transposed by one warp and copied to columns 0-3 and 4-7 of SFB_tmem;
# the descriptor's N is 256: 0x08A10000 - 0x200000 + (256 >> 3) << 17
# = 0x08C10000.
# CHECK-LABEL: mxfp8_gemm_1_kernel(
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 512);
# CHECK: tlc::cuda::sfWarpTranspose({{.*}}, 2, tid);
# CHECK: tlc::cuda::tcgen05CopyWarpx4(SFB_tmem + 0, tlc::cuda::tcgen05SmemDescriptor([[W2:sfWords[_0-9]*]] + 0, 0x0000400800000000ull));
# CHECK-NEXT: tlc::cuda::tcgen05CopyWarpx4(SFB_tmem + 4, tlc::cuda::tcgen05SmemDescriptor([[W2]] + 128, 0x0000400800000000ull));
# CHECK: 0x08c10000u | ((uint32_t)({{.*}}) & 3u) << 29
#
# SM90: error: shared.tmem is Blackwell's tensor memory (tcgen05), which needs sm_100a
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
    # block_N = 256: 256 rows of B's scale factors, two 128-row groups
    # (TileLang's copy is then the transpose and tcgen05.cp intrinsics).
    b2 = torch.randn(640, 264, dtype=torch.float16).to(torch.float8_e4m3fn)
    sfb2 = torch.randint(122, 132, (264, 5), dtype=torch.uint8)
    mxfp8_gemm(a, b2, sfa, sfb2, block_N=256)


if __name__ == "__main__":
    main()

# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel=umma_gemm --seed 5 --save %t/umma > /dev/null
# RUN: %python -c "import numpy as np; d='%t/umma/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a @ b.T, 2e-2, 2e-2))" | FileCheck %s --check-prefix=REF
# RUN: tlc-run %t/cpu --kernel=ws_gemm --seed 6 --save %t/ws > /dev/null
# RUN: %python -c "import numpy as np; d='%t/ws/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a @ b, 2e-2, 2e-2))" | FileCheck %s --check-prefix=REF
# RUN: tlc-run %t/cpu --kernel=chained_gemm --seed 7 --save %t/ch > /dev/null
# RUN: %python -c "import numpy as np; d='%t/ch/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b1=np.load(d+'inputs/B1.npy').astype(np.float64); b2=np.load(d+'inputs/B2.npy').astype(np.float64); s=(a @ b1.T).astype(np.float32).astype(np.float16).astype(np.float64); d_=np.load(d+'D.npy').astype(np.float64); print(np.allclose(d_, s @ b2.T, 3e-2, 3e-2))" | FileCheck %s --check-prefix=REF
# REF: True
#
# Blackwell GEMMs into tensor memory (tile-plan-tcgen05,
# CUDAEmitterTcgen05.cpp), in the styles of the public sm100 examples:
# T.gemm(..., mbar=) with a run-time clear_accum (gemm_umma), a
# warp-specialised pipeline with T.tcgen05_gemm and T.tcgen05_mma_arrive
# (gemm_tcgen5mma_ws, one CTA), and a chained product whose A operand is
# stored to tensor memory (gemm_tcgen5mma_ts). There is no Blackwell GPU
# here: the CUDA code is checked as text and by nvcc -arch=sm_100a
# (tcgen05-gemm-nvcc.test); the CPU target runs the programs at ragged
# sizes against NumPy.
#
# The instruction descriptors, worked out from the PTX ISA's table
# (D F32 = 1 << 4, A/B BF16 = 1 << 7 / 1 << 10 (F16: 0), transpose B
# (MN-major) 1 << 16, N >> 3 << 17, M >> 4 << 24):
#   bf16, M 128, N 128, B K-major:  0x10 | 0x80 | 0x400 | 16 << 17 | 8 << 24
#                                   = 0x08200490
#   bf16, M 128, N 128, B MN-major: 0x08200490 | 1 << 16 = 0x08210490
#   f16,  M 128, N 64,  B K-major:  0x10 | 8 << 17 | 8 << 24 = 0x08100010
#
# CHECK-LABEL: umma_gemm
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 128);
# CHECK: tlc::cuda::tmemRelinquishAllocPermit();
# CHECK: tcgen05SmemDescriptor({{.*}}, 0x4000404000010000ull)
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F16>({{.*}}, 0x08200490u, ({{.*}}) ? 0u : 1u);
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F16>({{.*}} + 2, {{.*}}, 0x08200490u, 1u);
# CHECK: tlc::cuda::tcgen05Commit(
# CHECK: tlc::cuda::tmemLoad32x32bX8(
# CHECK: tlc::cuda::tmemWaitLoad();
# CHECK: tlc::cuda::tmemDealloc({{.*}}, 128);
# CHECK-LABEL: ws_gemm
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F16>({{.*}}, 0x08210490u,
# CHECK-LABEL: chained_gemm
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 256);
# CHECK: tlc::cuda::tmemStore32x32bX8(
# CHECK: tlc::cuda::tmemWaitStore();
# CHECK: tlc::cuda::tcgen05MmaTS({{.*}}, 0x08100010u,
#
# SM90: error: shared.tmem is Blackwell's tensor memory (tcgen05), which needs sm_100a; building for sm_90a, which has none (build with --target=cuda:sm_100a)
import tilelang
import tilelang.language as T


@tilelang.jit
def umma_gemm(A, B, block_M=128, block_N=128, block_K=64):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.bfloat16)
    B: T.Tensor((N, K), T.bfloat16)
    C = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), T.bfloat16)
        B_shared = T.alloc_shared((block_N, block_K), T.bfloat16)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        mbar = T.alloc_barrier(1)
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
            T.copy(A[by * block_M, k * block_K], A_shared)
            T.copy(B[bx * block_N, k * block_K], B_shared)
            T.gemm(A_shared, B_shared, C_tmem, transpose_B=True, mbar=mbar, wg_wait=-1, clear_accum=k == 0)
            T.mbarrier_wait_parity(mbar, k % 2)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[by * block_M, bx * block_N])
    return C


@tilelang.jit
def ws_gemm(A, B, block_M=128, block_N=128, block_K=64, num_stages=2):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.bfloat16)
    B: T.Tensor((K, N), T.bfloat16)
    C = T.empty((M, N), T.float32)
    k_iters = T.ceildiv(K, block_K)
    with T.Kernel(T.ceildiv(M, block_M), T.ceildiv(N, block_N), threads=128) as (bx, by):
        A_0 = T.alloc_shared((block_M, block_K), T.bfloat16)
        B_0 = T.alloc_shared((block_K, block_N), T.bfloat16)
        A_1 = T.alloc_shared((block_M, block_K), T.bfloat16)
        B_1 = T.alloc_shared((block_K, block_N), T.bfloat16)
        C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        loaded = T.alloc_barrier([32] * num_stages)
        consumed = T.alloc_barrier([1] * num_stages)
        tmem_full = T.alloc_barrier([1])
        tx = T.get_thread_binding()
        if tx < 32:
            for k in T.serial(k_iters):
                s = k % 2
                T.mbarrier_wait_parity(consumed[s], ((k // 2) & 1) ^ 1)
                if s == 0:
                    T.copy(A[bx * block_M, k * block_K], A_0)
                    T.copy(B[k * block_K, by * block_N], B_0)
                else:
                    T.copy(A[bx * block_M, k * block_K], A_1)
                    T.copy(B[k * block_K, by * block_N], B_1)
                T.mbarrier_arrive(loaded[s])
        elif tx < 64:
            for k in T.serial(k_iters):
                s = k % 2
                T.mbarrier_wait_parity(loaded[s], (k // 2) & 1)
                if s == 0:
                    T.tcgen05_gemm(A_0, B_0, C_tmem, mbar=consumed[0], clear_accum=k == 0)
                else:
                    T.tcgen05_gemm(A_1, B_1, C_tmem, mbar=consumed[1], clear_accum=k == 0)
            T.tcgen05_mma_arrive(tmem_full)
        T.mbarrier_wait_parity(tmem_full, 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[bx * block_M, by * block_N])
    return C


@tilelang.jit
def chained_gemm(A, B1, B2, block_M=128, block_N1=64, block_N2=64, block_K=64):
    M, N2, K = T.const("M, N2, K")
    N1 = 64
    A: T.Tensor((M, K), T.float16)
    B1: T.Tensor((N1, K), T.float16)
    B2: T.Tensor((N2, N1), T.float16)
    D = T.empty((M, N2), T.float32)
    with T.Kernel(T.ceildiv(N2, block_N2), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B1_shared = T.alloc_shared((block_N1, block_K), T.float16)
        S_tmem = T.alloc_tmem([block_M, block_N1], T.float32)
        mbar1 = T.alloc_barrier(1)
        S_local = T.alloc_fragment((block_M, block_N1), T.float32)
        P_local = T.alloc_fragment((block_M, block_N1), T.float16)
        P_tmem = T.alloc_tmem([block_M, block_N1], T.float16)
        B2_shared = T.alloc_shared((block_N2, block_N1), T.float16)
        D_tmem = T.alloc_tmem([block_M, block_N2], T.float32)
        mbar2 = T.alloc_barrier(1)
        D_local = T.alloc_fragment((block_M, block_N2), T.float32)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
            T.copy(A[by * block_M, k * block_K], A_shared)
            T.copy(B1[0, k * block_K], B1_shared)
            T.gemm(A_shared, B1_shared, S_tmem, transpose_B=True, mbar=mbar1, wg_wait=-1, clear_accum=k == 0)
            T.mbarrier_wait_parity(mbar1, k % 2)
        T.copy(S_tmem, S_local)
        T.copy(S_local, P_local)
        T.copy(P_local, P_tmem)
        T.copy(B2[bx * block_N2, 0], B2_shared)
        T.gemm(P_tmem, B2_shared, D_tmem, transpose_B=True, mbar=mbar2, wg_wait=-1, clear_accum=True)
        T.mbarrier_wait_parity(mbar2, 0)
        T.copy(D_tmem, D_local)
        T.copy(D_local, D[by * block_M, bx * block_N2])
    return D


def main():
    import torch
    a = torch.randn(200, 136, dtype=torch.bfloat16)
    umma_gemm(a, torch.randn(72, 136, dtype=torch.bfloat16))
    ws_gemm(a, torch.randn(136, 72, dtype=torch.bfloat16))
    chained_gemm(torch.randn(200, 136, dtype=torch.float16),
                 torch.randn(64, 136, dtype=torch.float16),
                 torch.randn(72, 64, dtype=torch.float16))


if __name__ == "__main__":
    main()

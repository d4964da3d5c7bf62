# A tcgen05 gemm (sm_100a) whose operands are a K range of their shared
# tiles, `A_shared[:, 64:128]` (issue 14): the printer took K from the
# tile, not the region, so it would have issued 8 K steps over the whole
# tile from the region's start (the planner refused such regions, "A must
# be a whole static shared tile"). tile-plan-tcgen05 now accepts a K range
# that starts where a descriptor can (a panel's first column, or inside
# one panel on 16 bytes, as tile-plan-wgmma) and the printer issues the
# region's K / 16 = 4 steps from its first element: column 64 of a
# 128-byte-swizzled bf16 tile is the first element of its second panel,
# 128 rows x 128 bytes = 16384 bytes (8192 elements) in. A range that
# starts inside a panel and leaves it is refused where the gemm is. No
# Blackwell GPU here: the code is checked as text, and the CPU target's C
# against NumPy.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: tcgen05SmemDescriptor((A_shared + tlc::cuda::panelSwizzledIndex<8, 8, 128, 128>(0, 0, 64)), 0x4000404000010000ull);
# CHECK: tcgen05SmemDescriptor((B_shared + tlc::cuda::panelSwizzledIndex<8, 8, 64, 128>(0, 0, 64)), 0x4000404000010000ull);
# CHECK-COUNT-4: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F16>(
# CHECK-NOT: tcgen05MmaSS
# CHECK: tlc::cuda::tcgen05Commit(
# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda -D k0=32 %s 2>&1 | FileCheck %s --check-prefix=MID
# MID: tcgen05-k-split.py:{{[0-9]+}}:{{[0-9]+}}: error: T.gemm into tensor memory (tcgen05.mma): the matrix descriptors cannot address operand B: the region starts at column 32 of its tile, inside a 128-byte swizzle panel of 64 columns, and leaves it
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a[:, 64:] @ b[:, 64:].T, 2e-2, 2e-2))" | FileCheck %s --check-prefix=REF
# REF: True
import tilelang
import tilelang.language as T


@tilelang.jit
def ksplit_gemm(A, B, block_M=128, block_N=64, block_K=128, k0=64):
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
        T.copy(A[by * block_M, 0], A_shared)
        T.copy(B[bx * block_N, 0], B_shared)
        # 64 of the tile's 128 K columns, from k0.
        T.gemm(A_shared[:, k0:k0 + 64], B_shared[:, k0:k0 + 64], C_tmem, transpose_B=True, mbar=mbar, wg_wait=-1, clear_accum=True)
        T.mbarrier_wait_parity(mbar, 0)
        T.copy(C_tmem, C_local)
        T.copy(C_local, C[by * block_M, bx * block_N])
    return C


def main():
    import torch
    ksplit_gemm(torch.randn(200, 128, dtype=torch.bfloat16),
                torch.randn(72, 128, dtype=torch.bfloat16))


if __name__ == "__main__":
    main()

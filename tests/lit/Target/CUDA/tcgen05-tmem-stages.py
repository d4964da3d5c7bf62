# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(c.shape, np.allclose(c, a @ b, 1e-3, 1e-3))" | FileCheck %s --check-prefix=REF
# RUN: sed 's/elif 128 <= tx < 256:/elif 96 <= tx < 224:/' %s > %t/off.py
# RUN: not tlc-build --target=cuda:sm_100a --emit=cuda %t/off.py 2>&1 | FileCheck %s --check-prefix=OFF
#
# Tensor memory of two stages, as the clc persistent GEMM
# (gemm_tcgen05/gemm_tcgen5mma_ws_clc) double-buffers its accumulator:
# C_tmem [2, 128, 128] f32 takes 2 x 128 columns (the lanes are the
# second-to-last dimension), the MMA warp accumulates tile w into stage
# w & 1 (`C_tmem[w & 1, :, :]`: column base + (w & 1) * 128), and the
# epilogue warpgroup reads it back in 32-column windows
# (`C_tmem[w & 1, :, i * 32:(i + 1) * 32]` in a T.unroll loop, column
# base + (w & 1) * 128 + i * 32). The epilogue's branch is the
# `elif 128 <= tx < 256` after an `elif 64 <= tx < 96` whose else branch
# is two thread intervals: its threads are [128, 256), one warpgroup, one
# row each. There is no Blackwell GPU here: the CUDA code is checked as
# text and by nvcc (tcgen05-gemm-nvcc.test), the CPU target runs the same
# program (4 tiles of 128 x 128, the last ragged: 200 x 136 from K = 128)
# against NumPy.
#
# The instruction descriptor (PTX ISA table; bf16, M 128, N 128, B [K, N]
# MN-major): D F32 1 << 4 | A BF16 1 << 7 | B BF16 1 << 10 | transpose B
# 1 << 16 | (128 >> 3) << 17 | (128 >> 4) << 24 = 0x08210490.
#
# CHECK-LABEL: staged_tmem_gemm_kernel(
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 256);
# CHECK: const uint32_t C_tmem = tmemBase + 0;  // tensor memory columns 0..255
# CHECK: tcgen05MmaSS<tlc::cuda::kTcgen05F16>((C_tmem + ([[S:t_[0-9]+]]) * 128) + 0, aDesc + 0, bDesc + 0, 0x08210490u, ({{.*}}) ? 0u : 1u);
# CHECK: threads [128, 256) (128): tile operations are partitioned over them
# CHECK: const uint32_t taddr = (C_tmem + ([[S2:t_[0-9]+]]) * 128 + ([[W:t_[0-9]+]])) + ((uint32_t)(tid & ~31) << 16);
# CHECK: tmemLoad32x32bX8(taddr + 0, cells);
# CHECK: tmemLoad32x32bX8(taddr + 24, cells);
# CHECK: tmemDealloc(tmemBase, 256);
#
# REF: (200, 136) True
#
# The same epilogue on threads [96, 224): warp 3 reaches lanes 96.. only.
# OFF: off.py:[[# @LINE + 53]]:21: error: T.copy with tensor memory: its threads start at thread 96; warp w reaches tensor memory lanes 32 * (w % 4) onwards only, so they must start on a warpgroup (a multiple of 128)
import tilelang
import tilelang.language as T


@tilelang.jit
def staged_tmem_gemm(A, B, block_M=128, block_N=128, store_block_N=32, block_K=64, num_stages=2):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.bfloat16)
    B: T.Tensor((K, N), T.bfloat16)
    C = T.empty((M, N), T.float32)
    m_blocks = T.ceildiv(M, block_M)
    n_blocks = T.ceildiv(N, block_N)
    k_blocks = T.ceildiv(K, block_K)
    tiles = m_blocks * n_blocks
    with T.Kernel(1, threads=256) as (block_id):
        A_shared = T.alloc_shared((num_stages, block_M, block_K), T.bfloat16)
        B_shared = T.alloc_shared((num_stages, block_K, block_N), T.bfloat16)
        C_tmem = T.alloc_tmem([2, block_M, block_N], T.float32)
        C_local = T.alloc_fragment((block_M, store_block_N), T.float32)
        loaded = T.alloc_barrier([32] * num_stages)
        consumed = T.alloc_barrier([1] * num_stages)
        tmem_full = T.alloc_barrier([1] * 2)
        tmem_empty = T.alloc_barrier([128] * 2)
        done = T.alloc_shared((1,), T.int32)
        tx = T.get_thread_binding()
        if tx < 32:
            for w in T.serial(tiles):
                bx = w // n_blocks
                by = w % n_blocks
                for k in T.serial(k_blocks):
                    phase = w * k_blocks + k
                    T.mbarrier_wait_parity(consumed[phase % num_stages], ((phase // num_stages) & 1) ^ 1)
                    T.tma_copy(A[bx * block_M:(bx + 1) * block_M, k * block_K:(k + 1) * block_K], A_shared[phase % num_stages, :, :], barrier=loaded[phase % num_stages])
                    T.tma_copy(B[k * block_K:(k + 1) * block_K, by * block_N:(by + 1) * block_N], B_shared[phase % num_stages, :, :], barrier=loaded[phase % num_stages])
                    T.mbarrier_arrive(loaded[phase % num_stages])
        elif tx < 64:
            for w in T.serial(tiles):
                T.mbarrier_wait_parity(tmem_empty[w & 1], ((w // 2) & 1) ^ 1)
                for k in T.serial(k_blocks):
                    phase = w * k_blocks + k
                    T.mbarrier_wait_parity(loaded[phase % num_stages], (phase // num_stages) & 1)
                    T.tcgen05_gemm(A_shared[phase % num_stages, :, :], B_shared[phase % num_stages, :, :], C_tmem[w & 1, :, :], mbar=consumed[phase % num_stages], clear_accum=k == 0)
                T.tcgen05_mma_arrive(tmem_full[w & 1])
        elif 64 <= tx < 96:
            if tx == 64:
                done[0] = tiles
        elif 128 <= tx < 256:
            for w in T.serial(tiles):
                bx = w // n_blocks
                by = w % n_blocks
                T.mbarrier_wait_parity(tmem_full[w & 1], (w // 2) & 1)
                for i in T.unroll(T.ceildiv(block_N, store_block_N)):
                    T.copy(C_tmem[w & 1, :, i * store_block_N:(i + 1) * store_block_N], C_local)
                    T.copy(C_local, C[bx * block_M, by * block_N + i * store_block_N])
                T.mbarrier_arrive(tmem_empty[w & 1])
    return C


def main():
    import torch
    staged_tmem_gemm(torch.randn(200, 128, dtype=torch.bfloat16), torch.randn(128, 136, dtype=torch.bfloat16))


if __name__ == "__main__":
    main()

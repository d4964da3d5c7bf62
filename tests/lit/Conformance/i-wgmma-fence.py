# C_s's hint (the T.tma_copy store's tile) says row-major, as the CUDA code stores it (it said TileLang's "swizzle 128B"
# before the hints described the printer's storage); the one remark (8-way bank conflict on C_s) is true.
# RUN: tlc-build --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# I: T.wgmma_gemm with warpgroup_arrive/commit_batch/wait, warpgroup_fence_operand, wait_wgmma,
# fence_proxy_async + TMA store, barrier_arrive/wait. Shape: eager T.const + .compile.
import tilelang
import tilelang.language as T


@tilelang.jit
def scaled_wgmma(A, B, alpha=1.0, block_M=64, block_N=128, block_K=64):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C = T.empty((M, N), T.float16)
    acc_regs = block_M * block_N // 128
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        A_s = T.alloc_shared((block_M, block_K), T.float16)
        B_s = T.alloc_shared((block_K, block_N), T.float16)
        C_s = T.alloc_shared((block_M, block_N), T.float16)
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        bar = T.alloc_barrier(128)
        T.clear(acc)
        for ko in T.serial(T.ceildiv(K, block_K)):
            T.tma_copy(A[by * block_M, ko * block_K], A_s, barrier=bar)
            T.tma_copy(B[ko * block_K, bx * block_N], B_s, barrier=bar)
            T.barrier_arrive(bar)
            T.barrier_wait(bar, ko % 2)
            T.warpgroup_fence_operand(acc, num_regs=acc_regs)
            T.warpgroup_arrive()
            T.wgmma_gemm(A_s, B_s, acc)
            T.warpgroup_commit_batch()
            T.warpgroup_wait(0)
            T.warpgroup_fence_operand(acc, num_regs=acc_regs)
        T.wait_wgmma(0)
        for i, j in T.Parallel(block_M, block_N):
            C_s[i, j] = T.cast(acc[i, j] * alpha, T.float16)
        T.fence_proxy_async()
        T.tma_copy(C_s, C[by * block_M, bx * block_N])
        T.tma_store_wait(0)
    return C


kernel = scaled_wgmma.compile(M=4096, N=4096, K=2048, alpha=0.125)

# T.wgmma_gemm is the WGMMA-only form of T.gemm (tl.tileop.wgmma_gemm): it
# drives layout inference exactly like T.gemm does on sm_90.
# CHECK: "name":"A","kind":"tensor","shape":[4096,2048],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_s","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"C_s","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
# CHECK: "name":"bar","kind":"buffer","shape":[1],"dtype":"uint64","scope":"shared.barrier","layout":null

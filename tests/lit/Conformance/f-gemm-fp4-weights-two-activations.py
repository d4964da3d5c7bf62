# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_100a --emit=hints --format=json %s | FileCheck %s
# F: one staged FP4 weight tile (a region of a (stages, N, K) buffer) read
# by an f8 x f4 and an f4 x f4 gemm: the weights keep their 4-bit layout in
# both. Shape: lazy factory, T.serial loop over the stages.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def mixed_a(M=128, N=128, K=256, block_M=64, block_N=64, block_K=128, stages=2):
    # One FP4 weight tile, staged; the fp8 activations meet it in a
    # f8 x f4 gemm, the fp4 activations in a f4 x f4 gemm.
    @T.prim_func
    def main(X8: T.Tensor((M, K), T.float8_e4m3fn), X4: T.Tensor((M, K), T.float4_e2m1fn),
             W: T.Tensor((N, K), T.float4_e2m1fn), C8: T.Tensor((M, N), T.float32),
             C4: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            X8_s = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
            X4_s = T.alloc_shared((block_M, block_K), T.float4_e2m1fn)
            W_s = T.alloc_shared((stages, block_N, block_K), T.float4_e2m1fn)
            c8 = T.alloc_fragment((block_M, block_N), T.float32)
            c4 = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(c8)
            T.clear(c4)
            for ko in T.serial(T.ceildiv(K, block_K)):
                T.copy(X8[by * block_M, ko * block_K], X8_s)
                T.copy(X4[by * block_M, ko * block_K], X4_s)
                T.copy(W[bx * block_N, ko * block_K], W_s[ko % stages, :, :])
                T.gemm(X8_s, W_s[ko % stages, :, :], c8, transpose_B=True)
                T.gemm(X4_s, W_s[ko % stages, :, :], c4, transpose_B=True)
            T.copy(c8, C8[by * block_M, bx * block_N])
            T.copy(c4, C4[by * block_M, bx * block_N])
    return main


mixed_a()

# CHECK: "name":"X8_s","kind":"buffer","shape":[64,128],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"X4_s","kind":"buffer","shape":[64,128],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"W_s","kind":"buffer","shape":[2,64,128],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"c8","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 32 regs/thread"
# CHECK: "name":"c4","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 32 regs/thread"

# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# F: FP8 gemms of mixed codes (e4m3 x e5m2 beside e5m2 x e5m2) sharing one
# staged e5m2 B tile, each into its own accumulator (wgmma takes a type per
# operand). Shape: lazy factory, T.Pipelined with three stages.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def mix8(M=256, N=256, K=256, block_M=64, block_N=128, block_K=64):
    # e4m3 x e5m2 and e5m2 x e5m2 gemms share the e5m2 B tile; each has its
    # own accumulator.
    @T.prim_func
    def main(A4: T.Tensor((M, K), T.float8_e4m3fn), A5: T.Tensor((M, K), T.float8_e5m2),
             B: T.Tensor((N, K), T.float8_e5m2), C1: T.Tensor((M, N), T.float32),
             C2: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A4_s = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
            A5_s = T.alloc_shared((block_M, block_K), T.float8_e5m2)
            B_s = T.alloc_shared((block_N, block_K), T.float8_e5m2)
            c1 = T.alloc_fragment((block_M, block_N), T.float32)
            c2 = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(c1)
            T.clear(c2)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A4[by * block_M, ko * block_K], A4_s)
                T.copy(A5[by * block_M, ko * block_K], A5_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.gemm(A4_s, B_s, c1, transpose_B=True)
                T.gemm(A5_s, B_s, c2, transpose_B=True)
            T.copy(c1, C1[by * block_M, bx * block_N])
            T.copy(c2, C2[by * block_M, bx * block_N])
    return main


mix8()

# CHECK: "name":"A4_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"A5_s","kind":"buffer","shape":[64,64],"dtype":"float8_e5m2","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B_s","kind":"buffer","shape":[128,64],"dtype":"float8_e5m2","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"c1","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 64 regs/thread"
# CHECK: "name":"c2","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 64 regs/thread"

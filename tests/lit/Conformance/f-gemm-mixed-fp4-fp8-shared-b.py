# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_100a --emit=hints --format=json %s | FileCheck %s
# F: f4 x f8 and f8 x f8 gemms sharing one fp8 B tile (kind::f8f6f4 takes a
# format per operand): B's shared layout follows B's own 8-bit elements in
# both, as TileLang lays out each operand. Shape: lazy factory, T.Pipelined.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def mixed_b(M=128, N=128, K=128, block_M=64, block_N=64, block_K=64):
    @T.prim_func
    def main(A4: T.Tensor((M, K), T.float4_e2m1fn), A8: T.Tensor((M, K), T.float8_e4m3fn),
             B: T.Tensor((N, K), T.float8_e4m3fn), C4: T.Tensor((M, N), T.float32),
             C8: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A4_s = T.alloc_shared((block_M, block_K), T.float4_e2m1fn)
            A8_s = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
            B_s = T.alloc_shared((block_N, block_K), T.float8_e4m3fn)
            acc4 = T.alloc_fragment((block_M, block_N), T.float32)
            acc8 = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc4)
            T.clear(acc8)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A4[by * block_M, ko * block_K], A4_s)
                T.copy(A8[by * block_M, ko * block_K], A8_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.gemm(A4_s, B_s, acc4, transpose_B=True)
                T.gemm(A8_s, B_s, acc8, transpose_B=True)
            T.copy(acc4, C4[by * block_M, bx * block_N])
            T.copy(acc8, C8[by * block_M, bx * block_N])
    return main


mixed_b()

# CHECK: "name":"A4_s","kind":"buffer","shape":[64,64],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"A8_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"acc4","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 32 regs/thread"
# CHECK: "name":"acc8","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 32 regs/thread"

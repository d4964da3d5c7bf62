# A shared B tile read by two gemms whose A operands have different element
# widths (f4 x f8 beside f8 x f8; a staged FP4 tile under f8 x f4 and
# f4 x f4): TileLang lays out each operand by its own elements
# (makeGemmABLayout of the operand's bits), so both gemms give B one layout
# and there is no conflict. tlc took B's layout from A's width: "layout
# conflict on 'B_s': 'tile.gemm' needs swizzle 64B, but 'tile.gemm' gave it
# linear". Each B gets the layout a gemm of its own dtype alone gives it
# (the mixed=0 instances).
# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_100a --emit=hints --format=json %s | FileCheck %s
# CHECK: "instance":"shared_b()","name":"B_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "instance":"shared_b(mixed=0)","name":"B_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "instance":"staged_w()","name":"W_s","kind":"buffer","shape":[2,64,128],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "instance":"staged_w(mixed=0)","name":"W_s","kind":"buffer","shape":[2,64,128],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"swizzle 128B"
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def shared_b(M=128, N=128, K=128, block=64, mixed=1):
    @T.prim_func
    def main(A4: T.Tensor((M, K), T.float4_e2m1fn), A8: T.Tensor((M, K), T.float8_e4m3fn),
             B: T.Tensor((N, K), T.float8_e4m3fn), C4: T.Tensor((M, N), T.float32),
             C8: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A4_s = T.alloc_shared((block, block), T.float4_e2m1fn)
            A8_s = T.alloc_shared((block, block), T.float8_e4m3fn)
            B_s = T.alloc_shared((block, block), T.float8_e4m3fn)
            acc4 = T.alloc_fragment((block, block), T.float32)
            acc8 = T.alloc_fragment((block, block), T.float32)
            T.clear(acc4)
            T.clear(acc8)
            for ko in T.Pipelined(T.ceildiv(K, block), num_stages=2):
                T.copy(A4[by * block, ko * block], A4_s)
                T.copy(A8[by * block, ko * block], A8_s)
                T.copy(B[bx * block, ko * block], B_s)
                if mixed:
                    T.gemm(A4_s, B_s, acc4, transpose_B=True)
                T.gemm(A8_s, B_s, acc8, transpose_B=True)
            T.copy(acc4, C4[by * block, bx * block])
            T.copy(acc8, C8[by * block, bx * block])

    return main


@tilelang.jit(out_idx=[3, 4])
def staged_w(M=128, N=128, K=256, block_M=64, block_N=64, block_K=128, stages=2, mixed=1):
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
                if mixed:
                    T.gemm(X8_s, W_s[ko % stages, :, :], c8, transpose_B=True)
                T.gemm(X4_s, W_s[ko % stages, :, :], c4, transpose_B=True)
            T.copy(c8, C8[by * block_M, bx * block_N])
            T.copy(c4, C4[by * block_M, bx * block_N])

    return main


shared_b()
shared_b(mixed=0)
staged_w()
staged_w(mixed=0)

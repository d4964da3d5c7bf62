# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# F: two gemms of different operand formats into one accumulator on sm_90a:
# fp16 with K-major B, and fp8 with an N-major B (which wgmma cannot read,
# so mma), FullRow. Shape: lazy factory, T.Pipelined.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4])
def two_formats(M=256, N=256, K=256, block_M=64, block_N=128, block_K=64):
    # C = A16 @ B16^T + A8 @ B8 in one accumulator: an fp16 and an fp8 gemm.
    @T.prim_func
    def main(A16: T.Tensor((M, K), T.float16), B16: T.Tensor((N, K), T.float16),
             A8: T.Tensor((M, K), T.float8_e4m3fn), B8: T.Tensor((K, N), T.float8_e4m3fn),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A16_s = T.alloc_shared((block_M, block_K), T.float16)
            B16_s = T.alloc_shared((block_N, block_K), T.float16)
            A8_s = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
            B8_s = T.alloc_shared((block_K, block_N), T.float8_e4m3fn)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A16[by * block_M, ko * block_K], A16_s)
                T.copy(B16[bx * block_N, ko * block_K], B16_s)
                T.copy(A8[by * block_M, ko * block_K], A8_s)
                T.copy(B8[ko * block_K, bx * block_N], B8_s)
                T.gemm(A16_s, B16_s, acc, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.gemm(A8_s, B8_s, acc, policy=T.GemmWarpPolicy.FullRow)
            T.copy(acc, C[by * block_M, bx * block_N])
    return main


two_formats()

# CHECK: "name":"A16_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B16_s","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"A8_s","kind":"buffer","shape":[64,64],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"B8_s","kind":"buffer","shape":[64,128],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"acc","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"mma.C · 4×1 warps · 64 regs/thread"

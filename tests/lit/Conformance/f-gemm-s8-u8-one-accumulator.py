# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# F: s8 x u8 and s8 x s8 gemms (one signed A tile) accumulating into one
# int32 fragment. Shape: lazy factory.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def s8u8(M=128, N=128, K=256, block_M=64, block_N=64, block_K=64):
    # Signed activations times unsigned and signed weights, summed in one
    # int32 accumulator (a zero-point correction kernel's shape).
    @T.prim_func
    def main(A: T.Tensor((M, K), T.int8), Bu: T.Tensor((N, K), T.uint8),
             Bs: T.Tensor((N, K), T.int8), C: T.Tensor((M, N), T.int32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.int8)
            Bu_s = T.alloc_shared((block_N, block_K), T.uint8)
            Bs_s = T.alloc_shared((block_N, block_K), T.int8)
            acc = T.alloc_fragment((block_M, block_N), T.int32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(Bu[bx * block_N, ko * block_K], Bu_s)
                T.copy(Bs[bx * block_N, ko * block_K], Bs_s)
                T.gemm(A_s, Bu_s, acc, transpose_B=True)
                T.gemm(A_s, Bs_s, acc, transpose_B=True)
            T.copy(acc, C[by * block_M, bx * block_N])
    return main


s8u8()

# CHECK: "name":"A_s","kind":"buffer","shape":[64,64],"dtype":"int8","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"Bu_s","kind":"buffer","shape":[64,64],"dtype":"uint8","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"Bs_s","kind":"buffer","shape":[64,64],"dtype":"int8","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"int32","scope":"local.fragment","layout":"mma.C · 2×2 warps · 32 regs/thread"

# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# F: one accumulator fed by a gemm whose A is a register fragment (copied
# from shared memory) and by a gemm whose A stays in shared memory, both
# against one B tile. Shape: lazy factory.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3])
def rs_ss(M=256, N=256, K=256, block_M=64, block_N=64, block_K=32):
    # acc += A_frag @ B^T (A from registers) and acc += A_s @ B^T (shared).
    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), A2: T.Tensor((M, K), T.float16),
             B: T.Tensor((N, K), T.float16), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.float16)
            A2_s = T.alloc_shared((block_M, block_K), T.float16)
            A_f = T.alloc_fragment((block_M, block_K), T.float16)
            B_s = T.alloc_shared((block_N, block_K), T.float16)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(A2[by * block_M, ko * block_K], A2_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.copy(A_s, A_f)
                T.gemm(A_f, B_s, acc, transpose_B=True)
                T.gemm(A2_s, B_s, acc, transpose_B=True)
            T.copy(acc, C[by * block_M, bx * block_N])
    return main


rs_ss()

# CHECK: "name":"A_s","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"A2_s","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"A_f","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"local.fragment","layout":"wgmma.A · 4×1 warps · 16 regs/thread"
# CHECK: "name":"B_s","kind":"buffer","shape":[64,32],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 64B"
# CHECK: "name":"acc","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"

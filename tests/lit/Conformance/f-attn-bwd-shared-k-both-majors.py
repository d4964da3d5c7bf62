# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | not grep -E "error|warning"
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s
# F: FlashAttention-backward's dQ loop: the K tile is read K-major by
# S = Q K^T and N-major by dQ += dS K, one shared buffer under both gemms.
# Shape: lazy factory, T.Pipelined.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[4])
def attn_bwd_dq(seq=256, dim=64, block_M=64, block_N=64, threads=128):
    # S = Q K^T (K_s as a K-major B), dQ += dS K (K_s as an N-major B): one
    # shared tile read both ways.
    @T.prim_func
    def main(Q: T.Tensor((seq, dim), T.float16), K: T.Tensor((seq, dim), T.float16),
             dO: T.Tensor((seq, dim), T.float16), V: T.Tensor((seq, dim), T.float16),
             dQ: T.Tensor((seq, dim), T.float32)):
        with T.Kernel(T.ceildiv(seq, block_M), threads=threads) as bx:
            Q_s = T.alloc_shared((block_M, dim), T.float16)
            dO_s = T.alloc_shared((block_M, dim), T.float16)
            K_s = T.alloc_shared((block_N, dim), T.float16)
            V_s = T.alloc_shared((block_N, dim), T.float16)
            dS_s = T.alloc_shared((block_M, block_N), T.float16)
            S = T.alloc_fragment((block_M, block_N), T.float32)
            dP = T.alloc_fragment((block_M, block_N), T.float32)
            dq = T.alloc_fragment((block_M, dim), T.float32)
            T.copy(Q[bx * block_M, 0], Q_s)
            T.copy(dO[bx * block_M, 0], dO_s)
            T.clear(dq)
            for kb in T.Pipelined(T.ceildiv(seq, block_N), num_stages=2):
                T.copy(K[kb * block_N, 0], K_s)
                T.copy(V[kb * block_N, 0], V_s)
                T.gemm(Q_s, K_s, S, transpose_B=True, clear_accum=True)
                T.gemm(dO_s, V_s, dP, transpose_B=True, clear_accum=True)
                for i, j in T.Parallel(block_M, block_N):
                    dS_s[i, j] = S[i, j] * dP[i, j]
                T.gemm(dS_s, K_s, dq)
            T.copy(dq, dQ[bx * block_M, 0])
    return main


attn_bwd_dq()

# CHECK: "name":"Q_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"dO_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"K_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"V_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"dS_s","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"S","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"
# CHECK: "name":"dP","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"
# CHECK: "name":"dq","kind":"buffer","shape":[64,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 32 regs/thread"

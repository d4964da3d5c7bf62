# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group F (+A, D): FlashAttention forward with online softmax under
# @tilelang.autotune(configs=...) over a lazy jit factory; configs from
# itertools.product; @T.macro stages (QK^T, softmax, rescale, PV) with
# T.reduce_max / T.reduce_sum / T.exp2 and a Python-bool causal mask; an
# explicit-config call bypasses tuning.
import argparse
import itertools

import tilelang
import tilelang.language as T


def get_configs():
    blocks = [64, 128]
    stages = [1, 2]
    threads = [128, 256]
    return [
        {"block_M": m, "block_N": 64, "num_stages": s, "threads": t}
        for m, s, t in itertools.product(blocks, stages, threads)
    ]


@tilelang.autotune(configs=get_configs(), warmup=10, rep=20)
@tilelang.jit(out_idx=[3], pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def flashattn(batch, heads, seq_len, dim, is_causal, block_M=64, block_N=64, num_stages=1, threads=128):
    scale = (1.0 / dim) ** 0.5 * 1.44269504
    shape = [batch, seq_len, heads, dim]
    dtype = T.float16
    accum_dtype = T.float32

    @T.macro
    def qk(K, Q_shared, K_shared, acc_s, k, bx, by, bz):
        T.copy(K[bz, k * block_N:(k + 1) * block_N, by, :], K_shared)
        if is_causal:
            for i, j in T.Parallel(block_M, block_N):
                acc_s[i, j] = T.if_then_else(bx * block_M + i >= k * block_N + j, 0, -T.infinity(accum_dtype))
        else:
            T.clear(acc_s)
        T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)

    @T.macro
    def softmax(acc_s, acc_s_cast, m_i, m_prev, alpha, row_sum, l_i):
        T.copy(m_i, m_prev)
        T.reduce_max(acc_s, m_i, dim=1, clear=False)
        for i in T.Parallel(block_M):
            m_i[i] = T.max(m_i[i], m_prev[i])
        for i in T.Parallel(block_M):
            alpha[i] = T.exp2(m_prev[i] * scale - m_i[i] * scale)
        for i, j in T.Parallel(block_M, block_N):
            acc_s[i, j] = T.exp2(acc_s[i, j] * scale - m_i[i] * scale)
        T.reduce_sum(acc_s, row_sum, dim=1)
        for i in T.Parallel(block_M):
            l_i[i] = l_i[i] * alpha[i] + row_sum[i]
        T.copy(acc_s, acc_s_cast)

    @T.macro
    def rescale(acc_o, alpha):
        for i, j in T.Parallel(block_M, dim):
            acc_o[i, j] *= alpha[i]

    @T.macro
    def pv(V, V_shared, acc_s_cast, acc_o, k, by, bz):
        T.copy(V[bz, k * block_N:(k + 1) * block_N, by, :], V_shared)
        T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

    @T.prim_func
    def main(
        Q: T.Tensor(shape, dtype),
        K: T.Tensor(shape, dtype),
        V: T.Tensor(shape, dtype),
        Output: T.Tensor(shape, dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            O_shared = T.alloc_shared([block_M, dim], dtype)
            acc_s = T.alloc_fragment([block_M, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_M, block_N], dtype)
            acc_o = T.alloc_fragment([block_M, dim], accum_dtype)
            m_i = T.alloc_fragment([block_M], accum_dtype)
            m_prev = T.alloc_fragment([block_M], accum_dtype)
            alpha = T.alloc_fragment([block_M], accum_dtype)
            row_sum = T.alloc_fragment([block_M], accum_dtype)
            l_i = T.alloc_fragment([block_M], accum_dtype)

            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(l_i, 0)
            T.fill(m_i, -T.infinity(accum_dtype))

            loop_range = (
                T.min(T.ceildiv(seq_len, block_N), T.ceildiv((bx + 1) * block_M, block_N))
                if is_causal else T.ceildiv(seq_len, block_N)
            )
            for k in T.Pipelined(loop_range, num_stages=num_stages):
                qk(K, Q_shared, K_shared, acc_s, k, bx, by, bz)
                softmax(acc_s, acc_s_cast, m_i, m_prev, alpha, row_sum, l_i)
                rescale(acc_o, alpha)
                pv(V, V_shared, acc_s_cast, acc_o, k, by, bz)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= l_i[i]
            T.copy(acc_o, O_shared)
            T.copy(O_shared, Output[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--seq_len", type=int, default=2048)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--tune", action="store_true")
    args = parser.parse_args()
    if args.tune:
        kernel = flashattn(args.batch, args.heads, args.seq_len, args.dim, args.causal)
    else:
        kernel = flashattn(args.batch, args.heads, args.seq_len, args.dim, args.causal,
                           block_M=128, block_N=64, num_stages=2, threads=256)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"Q","kind":"tensor","shape":[2,2048,16,128],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"(bx, by, bz)","kind":"kernel","shape":[16,16,2],{{.*}}"detail":"256 threads + a 128-thread TMA producer warpgroup (warp-specialised)"
# CHECK: "name":"Q_shared","kind":"buffer","shape":[128,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# Both gemms are wgmma on the default sm_90a (P.V with P from registers).
# CHECK: "name":"acc_s","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 8×1 warps · 32 regs/thread"
# CHECK: "name":"acc_s_cast","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"local.fragment","layout":"wgmma.A · 8×1 warps · 32 regs/thread"
# CHECK: "name":"acc_o","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 8×1 warps · 64 regs/thread"
# CHECK: "name":"m_i","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C row · 8×1 warps · 2 regs/thread · rep 4"
# CHECK: "name":"k","kind":"pipeline","shape":[32],{{.*}}"detail":"2 stages"

# A flash-attention forward factory (layout batch, seq, heads, dim) with an
# optional causal mask, built by tlc for the CPU target and checked against
# a float32 torch softmax(QK^T/sqrt(d))V; seq_len is not a multiple of the
# tiles. Uses the profiler's assert_allclose with supplied inputs.

import math

import tilelang
import tilelang.language as T
import tilelang.testing
import torch


@tilelang.jit(out_idx=[-1], target="cpu", pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def attention(batch, seq_len, heads, dim, is_causal=False, block_M=32, block_N=32, threads=128):
    qk_scale = 1.44269504 / math.sqrt(dim)  # exp2 trick: log2(e) / sqrt(d)
    shape = [batch, seq_len, heads, dim]
    dtype = T.float16
    accum = T.float32

    @T.prim_func
    def fwd(
        Q: T.Tensor(shape, dtype),
        K: T.Tensor(shape, dtype),
        V: T.Tensor(shape, dtype),
        O: T.Tensor(shape, dtype),
    ):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=threads) as (bq, h, b):
            q_tile = T.alloc_shared([block_M, dim], dtype)
            k_tile = T.alloc_shared([block_N, dim], dtype)
            v_tile = T.alloc_shared([block_N, dim], dtype)
            s = T.alloc_fragment([block_M, block_N], accum)
            p = T.alloc_fragment([block_M, block_N], dtype)
            o = T.alloc_fragment([block_M, dim], accum)
            m_new = T.alloc_fragment([block_M], accum)
            m_old = T.alloc_fragment([block_M], accum)
            alpha = T.alloc_fragment([block_M], accum)
            row_sum = T.alloc_fragment([block_M], accum)
            denom = T.alloc_fragment([block_M], accum)

            T.copy(Q[b, bq * block_M:(bq + 1) * block_M, h, :], q_tile)
            T.fill(o, 0)
            T.fill(denom, 0)
            T.fill(m_new, -T.infinity(accum))
            n_blocks = T.ceildiv(seq_len, block_N)
            if is_causal:
                n_blocks = T.min(n_blocks, T.ceildiv((bq + 1) * block_M, block_N))
            for kb in T.Pipelined(n_blocks, num_stages=1):
                T.copy(K[b, kb * block_N:(kb + 1) * block_N, h, :], k_tile)
                for i, j in T.Parallel(block_M, block_N):
                    if is_causal:
                        s[i, j] = T.if_then_else(bq * block_M + i >= kb * block_N + j, 0, -T.infinity(accum))
                    else:
                        s[i, j] = T.if_then_else(kb * block_N + j < seq_len, 0, -T.infinity(accum))
                T.gemm(q_tile, k_tile, s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(m_new, m_old)
                T.reduce_max(s, m_new, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    alpha[i] = T.exp2(m_old[i] * qk_scale - m_new[i] * qk_scale)
                for i, j in T.Parallel(block_M, block_N):
                    s[i, j] = T.exp2(s[i, j] * qk_scale - m_new[i] * qk_scale)
                T.reduce_sum(s, row_sum, dim=1)
                for i in T.Parallel(block_M):
                    denom[i] = denom[i] * alpha[i] + row_sum[i]
                T.copy(s, p)
                for i, j in T.Parallel(block_M, dim):
                    o[i, j] *= alpha[i]
                T.copy(V[b, kb * block_N:(kb + 1) * block_N, h, :], v_tile)
                T.gemm(p, v_tile, o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                o[i, j] /= denom[i]
            T.copy(o, O[b, bq * block_M:(bq + 1) * block_M, h, :])

    return fwd


def reference(q, k, v, is_causal):
    qf, kf, vf = (x.float().transpose(1, 2) for x in (q, k, v))  # b h s d
    scores = qf @ kf.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if is_causal:
        n = q.shape[1]
        mask = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~mask, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ vf
    return out.transpose(1, 2).to(q.dtype)


def main():
    tilelang.testing.set_random_seed(1)
    batch, seq_len, heads, dim = 2, 80, 2, 32
    q, k, v = (torch.randn(batch, seq_len, heads, dim, dtype=torch.float16) for _ in range(3))
    for causal in (False, True):
        kernel = attention(batch, seq_len, heads, dim, is_causal=causal)
        out = kernel(q, k, v)
        tilelang.testing.torch_assert_close(out, reference(q, k, v, causal), rtol=1e-2, atol=1e-2)
        profiler = kernel.get_profiler()
        profiler.assert_allclose(lambda a, b, c: reference(a, b, c, causal), input_tensors=[q, k, v], rtol=1e-2, atol=1e-2)
        print(f"flash attention causal={causal}: all checks passed")


if __name__ == "__main__":
    main()

"""A small flash-attention backward (non-causal, [batch, heads, seq, dim]
tensors, two query heads over one key/value head) written for the numerics
ctest numerics-attn-bwd: it reads the forward's log2-domain lse and the
preprocess's Delta exactly as the corpus programs that
tests/bench/numerics/corpus_inputs.py's attn_bwd generator feeds do, so
attn_bwd_check.py's float64 NumPy gradients check the CPU target and that
generator together.

Per key/value block (grid x) and query head (grid y): for every query
block, S = Q K^T, P = exp2(S * log2(e) / sqrt(d) - lse), dV += P^T dO,
dP = dO V^T, dS = P (dP - Delta), dK += dS^T Q / sqrt(d), and
dQ += dS K / sqrt(d) by atomic adds (other key blocks add to the same rows);
dK and dV by atomic adds too (the query heads of a group share them).
"""
import tilelang
import tilelang.language as T

BATCH, HEADS, KV_HEADS, SEQ, DIM = 1, 2, 1, 128, 32
BLOCK_M, BLOCK_N = 32, 32
GROUPS = HEADS // KV_HEADS
SM_SCALE = (1.0 / DIM) ** 0.5
LOG2E = 1.4426950408889634


@tilelang.jit
def flashattn_bwd(Q: T.Tensor((BATCH, HEADS, SEQ, DIM), "float16"),
                  K: T.Tensor((BATCH, KV_HEADS, SEQ, DIM), "float16"),
                  V: T.Tensor((BATCH, KV_HEADS, SEQ, DIM), "float16"),
                  dO: T.Tensor((BATCH, HEADS, SEQ, DIM), "float16"),
                  lse: T.Tensor((BATCH, HEADS, SEQ), "float32"),
                  Delta: T.Tensor((BATCH, HEADS, SEQ), "float32"),
                  dQ: T.Tensor((BATCH, HEADS, SEQ, DIM), "float32"),
                  dK: T.Tensor((BATCH, KV_HEADS, SEQ, DIM), "float32"),
                  dV: T.Tensor((BATCH, KV_HEADS, SEQ, DIM), "float32")):
    with T.Kernel(SEQ // BLOCK_N, HEADS, BATCH, threads=128) as (bx, by, bz):
        kv = by // GROUPS
        K_s = T.alloc_shared((BLOCK_N, DIM), "float16")
        V_s = T.alloc_shared((BLOCK_N, DIM), "float16")
        Q_s = T.alloc_shared((BLOCK_M, DIM), "float16")
        dO_s = T.alloc_shared((BLOCK_M, DIM), "float16")
        P_s = T.alloc_shared((BLOCK_M, BLOCK_N), "float16")
        dS_s = T.alloc_shared((BLOCK_M, BLOCK_N), "float16")
        s = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        dp = T.alloc_fragment((BLOCK_M, BLOCK_N), "float32")
        dq = T.alloc_fragment((BLOCK_M, DIM), "float32")
        dk = T.alloc_fragment((BLOCK_N, DIM), "float32")
        dv = T.alloc_fragment((BLOCK_N, DIM), "float32")
        T.copy(K[bz, kv, bx * BLOCK_N:(bx + 1) * BLOCK_N, :], K_s)
        T.copy(V[bz, kv, bx * BLOCK_N:(bx + 1) * BLOCK_N, :], V_s)
        T.clear(dk)
        T.clear(dv)
        for m in T.serial(SEQ // BLOCK_M):
            T.copy(Q[bz, by, m * BLOCK_M:(m + 1) * BLOCK_M, :], Q_s)
            T.copy(dO[bz, by, m * BLOCK_M:(m + 1) * BLOCK_M, :], dO_s)
            T.clear(s)
            T.gemm(Q_s, K_s, s, transpose_B=True)
            for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                s[i, j] = T.exp2(s[i, j] * (SM_SCALE * LOG2E) -
                                 lse[bz, by, m * BLOCK_M + i])
            T.copy(s, P_s)
            T.gemm(P_s, dO_s, dv, transpose_A=True)
            T.clear(dp)
            T.gemm(dO_s, V_s, dp, transpose_B=True)
            for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                dp[i, j] = s[i, j] * (dp[i, j] - Delta[bz, by, m * BLOCK_M + i])
            T.copy(dp, dS_s)
            T.gemm(dS_s, Q_s, dk, transpose_A=True)
            T.clear(dq)
            T.gemm(dS_s, K_s, dq)
            for i, d in T.Parallel(BLOCK_M, DIM):
                T.atomic_add(dQ[bz, by, m * BLOCK_M + i, d], dq[i, d] * SM_SCALE)
        for i, d in T.Parallel(BLOCK_N, DIM):
            T.atomic_add(dK[bz, kv, bx * BLOCK_N + i, d], dk[i, d] * SM_SCALE)
            T.atomic_add(dV[bz, kv, bx * BLOCK_N + i, d], dv[i, d])

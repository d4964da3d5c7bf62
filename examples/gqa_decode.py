# Grouped-query attention decode with split-KV ("flash decoding"): one query
# token per sequence, Q (batch, heads, dim), K/V (batch, seqlen_kv, groups,
# dim) with heads = groups * kv_group_num, O = softmax(Q K^T / sqrt(d)) V.
#
# Lazy factory whose prim_func launches two kernels and passes data between
# them through T.alloc_global workspaces. Kernel 1 (grid batch x groups x
# num_split) lets the query heads that share a KV head attend to one split of
# the keys, writing a partial output and its log-sum-exp (base 2). Kernel 2
# (grid heads x batch) merges the splits with T.alloc_var scalars and serial
# loops. The split count is reduced at trace time so that every split holds
# at least one tile of keys.

import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3])
def gqa_decode(batch, heads, groups, seqlen_kv, dim, num_split=4, block_N=64, block_H=64, num_stages=2, threads=128):
    scale = (1.0 / dim) ** 0.5 * 1.44269504  # 1/sqrt(d) * log2(e)
    dtype = T.float16
    accum_dtype = T.float32
    assert heads % groups == 0, "heads must be a multiple of groups"
    kv_group_num = heads // groups
    valid_block_H = min(block_H, kv_group_num)
    assert kv_group_num % valid_block_H == 0
    blocks_per_group = kv_group_num // valid_block_H
    # Whole block_N tiles per split; no split is left without keys.
    total_tiles = tilelang.cdiv(seqlen_kv, block_N)
    tiles_per_split = tilelang.cdiv(total_tiles, min(num_split, total_tiles))
    num_split = tilelang.cdiv(total_tiles, tiles_per_split)
    split_len = tiles_per_split * block_N

    @T.prim_func
    def main(
        Q: T.Tensor([batch, heads, dim], dtype),
        K: T.Tensor([batch, seqlen_kv, groups, dim], dtype),
        V: T.Tensor([batch, seqlen_kv, groups, dim], dtype),
        Output: T.Tensor([batch, heads, dim], dtype),
    ):
        glse = T.alloc_global([batch, heads, num_split], accum_dtype)
        Output_partial = T.alloc_global([batch, heads, num_split, dim], accum_dtype)

        with T.Kernel(batch, heads // valid_block_H, num_split, threads=threads) as (bid, hid, sid):
            Q_shared = T.alloc_shared([block_H, dim], dtype)
            K_shared = T.alloc_shared([block_N, dim], dtype)
            V_shared = T.alloc_shared([block_N, dim], dtype)
            O_shared = T.alloc_shared([block_H, dim], accum_dtype)
            acc_s = T.alloc_fragment([block_H, block_N], accum_dtype)
            acc_s_cast = T.alloc_fragment([block_H, block_N], dtype)
            acc_o = T.alloc_fragment([block_H, dim], accum_dtype)
            scores_max = T.alloc_fragment([block_H], accum_dtype)
            scores_max_prev = T.alloc_fragment([block_H], accum_dtype)
            scores_scale = T.alloc_fragment([block_H], accum_dtype)
            scores_sum = T.alloc_fragment([block_H], accum_dtype)
            logsum = T.alloc_fragment([block_H], accum_dtype)

            kv_head = hid // blocks_per_group
            kv_start = sid * split_len
            # Rows past valid_block_H belong to other heads; they are computed
            # and discarded.
            T.copy(Q[bid, hid * valid_block_H:hid * valid_block_H + block_H, :], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum_dtype))

            num_tiles = T.min(tiles_per_split, total_tiles - sid * tiles_per_split)
            for k in T.Pipelined(num_tiles, num_stages=num_stages):
                kv_offset = kv_start + k * block_N
                T.copy(K[bid, kv_offset:kv_offset + block_N, kv_head, :], K_shared)
                for i, j in T.Parallel(block_H, block_N):
                    acc_s[i, j] = T.if_then_else(kv_offset + j < seqlen_kv, 0, -T.infinity(accum_dtype))
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(scores_max, scores_max_prev)
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block_H):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block_H, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block_H):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
                T.copy(acc_s, acc_s_cast)
                for i, j in T.Parallel(block_H, dim):
                    acc_o[i, j] *= scores_scale[i]
                T.copy(V[bid, kv_offset:kv_offset + block_N, kv_head, :], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)

            for i, j in T.Parallel(block_H, dim):
                acc_o[i, j] /= logsum[i]
            for i in T.Parallel(block_H):
                logsum[i] = T.log2(logsum[i]) + scores_max[i] * scale
            for i in T.Parallel(valid_block_H):
                glse[bid, hid * valid_block_H + i, sid] = logsum[i]
            T.copy(acc_o, O_shared)
            T.copy(O_shared[:valid_block_H, :], Output_partial[bid, hid * valid_block_H:(hid + 1) * valid_block_H, sid, :])

        with T.Kernel(heads, batch, threads=128) as (hid, bid):
            o_accum = T.alloc_fragment([dim], accum_dtype)
            lse_max = T.alloc_var(accum_dtype)
            lse_total = T.alloc_var(accum_dtype)
            weight = T.alloc_var(accum_dtype)

            T.clear(o_accum)
            lse_max = -T.infinity(accum_dtype)
            for s in T.serial(num_split):
                lse_max = T.max(lse_max, glse[bid, hid, s])
            lse_total = 0
            for s in T.serial(num_split):
                lse_total += T.exp2(glse[bid, hid, s] - lse_max)
            lse_total = T.log2(lse_total) + lse_max
            for s in T.serial(num_split):
                weight = T.exp2(glse[bid, hid, s] - lse_total)
                for i in T.Parallel(dim):
                    o_accum[i] += Output_partial[bid, hid, s, i] * weight
            for i in T.Parallel(dim):
                Output[bid, hid, i] = o_accum[i]

    return main


def ref_program(Q, K, V, groups):
    batch, heads, dim = Q.shape
    kv_group_num = heads // groups
    k = K.float().repeat_interleave(kv_group_num, dim=2)  # (batch, seqlen_kv, heads, dim)
    v = V.float().repeat_interleave(kv_group_num, dim=2)
    scores = torch.einsum("bhd,bshd->bhs", Q.float(), k) / dim**0.5
    return torch.einsum("bhs,bshd->bhd", torch.softmax(scores, dim=-1), v).to(Q.dtype)


def main():
    parser = argparse.ArgumentParser(description="GQA decode with split-KV")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--groups", type=int, default=8)
    parser.add_argument("--kv_seqlen", type=int, default=8192)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--num_split", type=int, default=8)
    args = parser.parse_args()

    kernel = gqa_decode(args.batch, args.heads, args.groups, args.kv_seqlen, args.dim, num_split=args.num_split)
    q = torch.randn(args.batch, args.heads, args.dim, dtype=torch.float16, device="cuda")
    k = torch.randn(args.batch, args.kv_seqlen, args.groups, args.dim, dtype=torch.float16, device="cuda")
    v = torch.randn(args.batch, args.kv_seqlen, args.groups, args.dim, dtype=torch.float16, device="cuda")
    o = kernel(q, k, v)
    torch.testing.assert_close(o, ref_program(q, k, v, args.groups), rtol=1e-2, atol=1e-2)
    print("gqa_decode: all checks passed")


if __name__ == "__main__":
    main()

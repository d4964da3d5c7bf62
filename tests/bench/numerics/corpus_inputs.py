"""Valid inputs for the corpus programs whose kernels have an input contract
(issue 13: corpus_check.sh compares them only when both back ends get
inputs the kernel is written for).

  corpus_inputs.py NAME ARTIFACT_DIR OUT_DIR [--scale F]

NAME is the corpus file's name without .py; ARTIFACT_DIR one of its
tlc-build output folders (the manifests give every parameter's shape and
dtype; symbolic extents such as a varlen batch's total length are chosen
here and reach tlc-run through the files' shapes); OUT_DIR receives
NAME.npy per input, or KERNEL/NAME.npy where kernels of one file disagree,
for `tlc-run --inputs OUT_DIR`; what it prints (e.g. `-Dmax_seqlen_q=1024`,
a scalar parameter) goes on the same tlc-run line. Each generator builds its batch the way
the program's own script does (cited per function). `--scale F` shrinks the
lengths this script chooses (varlen totals, sequence lengths), for the sim
device on the development machine; the instance's fixed extents stay.
Floating inputs are written as float32 .npy (tlc-run rounds them to the
parameter's dtype: bf16, fp8), integers as int32.

Programs without a contract but with gates tlc-run's standard normal
values do not suit (the delta-rule recurrences) get the script's
distribution: gates a chunk-local cumulative sum of logsigmoid(N(0, 1))
values, keys (and W, U where the script does) L2-normalised per row.
"""
import glob
import json
import os
import sys

import numpy as np

CHUNK = 64  # the delta-rule programs' chunk_size (h's chunk axis confirms it)


def manifests(art):
    """{kernel: {param: (shape, dtype, role)}} of the manifests in art."""
    out = {}
    for j in sorted(glob.glob(os.path.join(art, "*.json"))):
        m = json.load(open(j))
        out[m["name"]] = {p["name"]: (p.get("shape"), p.get("dtype"), p.get("role"))
                          for p in m["params"]}
    return out


def fixed(shape, **sym):
    """shape with its symbolic extents replaced from sym."""
    return tuple(d if isinstance(d, int) else sym[d] for d in shape)


def varlen(rng, batch, max_len, spread=20, multiple=1):
    """cu_seqlens of `batch` sequences of lengths in [max_len - spread,
    max_len], one of them max_len (the -D max_seqlen_q the runargs give), as
    generate_random_padding_mask(mode="random") draws them; with `multiple`,
    each length rounded down to a multiple of it."""
    lens = rng.integers(max(1, max_len - spread), max_len + 1, batch)
    lens[rng.integers(0, batch)] = max_len
    lens = np.maximum(multiple, lens // multiple * multiple)
    return np.concatenate([[0], np.cumsum(lens)]).astype(np.int32), lens


def normal(rng, shape, scale=1.0):
    return (rng.standard_normal(shape, dtype=np.float32) * scale)


def l2norm(x):
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def logsigmoid_cumsum(rng, shape, seq_axis=1):
    """chunk_local_cumsum(logsigmoid(randn), CHUNK) along seq_axis, as the
    delta-rule scripts' prepare_input (fla.ops.utils.cumsum)."""
    g = normal(rng, shape).astype(np.float64)
    g = -np.logaddexp(0.0, -g)  # logsigmoid
    s = shape[seq_axis]
    g = np.moveaxis(g, seq_axis, 0).reshape((s // CHUNK, CHUNK) + tuple(
        np.delete(np.array(shape), seq_axis)))
    g = np.cumsum(g, axis=1).reshape((s,) + g.shape[2:])
    return np.moveaxis(g, 0, seq_axis).astype(np.float32)


# ---- varlen attention (flash_attention/varlen_utils generate_qkv) -------

def attn_varlen(k, p, rng, scale, max_q, multiple=1, sinks=False):
    """example_mha_fwd_varlen / example_gqa_fwd_varlen /
    example_gqa_sink_fwd_varlen: Q_unpad/K_unpad/V_unpad packed, cu_seqlens
    prefix sums, lengths as generate_random_padding_mask(mode="random")
    draws them; printed: -Dmax_seqlen_q (the kernel's scalar). max_q 512
    (the scripts' 2048 is ~1 TFLOP for the CPU reference at 64 heads)."""
    (ps,) = p.values()
    batch = ps["cu_seqlens_q"][0][0] - 1
    max_q = max(CHUNK, int(max_q * scale)) // multiple * multiple
    cu_q, _ = varlen(rng, batch, max_q, multiple=multiple)
    cu_k, _ = varlen(rng, batch, max_q)
    hq, d = ps["Q_unpad"][0][1:]
    hk = ps["K_unpad"][0][1]
    out = {"Q_unpad": normal(rng, (cu_q[-1], hq, d)),
           "K_unpad": normal(rng, (cu_k[-1], hk, d)),
           "V_unpad": normal(rng, (cu_k[-1], hk, d)),
           "cu_seqlens_q": cu_q, "cu_seqlens_k": cu_k}
    if sinks:
        out["Sinks"] = normal(rng, (hq,))
    return out, f"-Dmax_seqlen_q={max_q}"


def mha_fwd_varlen(p, rng, scale):
    # The public program's last copy writes whole blocks of 64 query rows
    # from q_start + bx * 64, past the end of a sequence into the next one's
    # rows (python-verify-cpu-h200.md: a race in the program, block order
    # decides which write lands). Query lengths that are multiples of 64
    # keep the comparison to what the program computes deterministically.
    return attn_varlen("mha", p, rng, scale, 512, multiple=64)


def gqa_fwd_varlen(p, rng, scale):
    return attn_varlen("gqa", p, rng, scale, 512)


def gqa_sink_fwd_varlen(p, rng, scale):
    return attn_varlen("sink", p, rng, scale, 512, sinks=True)


def gqa_decode_varlen_logits(p, rng, scale):
    """flash_decoding/example_gqa_decode_varlen_logits: K/V packed,
    cu_seqlens_k the prefix sums of the k lengths. The script draws them in
    [max/4, max] (max = S's block count * 128, the instance's
    max_seqlen_kv); its kernel writes every column of S, those past the
    sequence's ceil(len / 128) blocks from shared memory nothing wrote
    (undefined on any back end: the script zeroes them before comparing).
    Lengths in (max - 128, max] make every column of S defined and still
    end in a partial block."""
    (ps,) = p.values()
    batch = ps["cu_seqlens_k"][0][0] - 1
    max_k = ps["S"][0][2] * 128
    lens = rng.integers(max_k - 127, max_k + 1, batch)
    cu = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    hk, d = ps["K"][0][1:]
    return {"Q": normal(rng, ps["Q"][0]), "K": normal(rng, (cu[-1], hk, d)),
            "V": normal(rng, (cu[-1], hk, d)), "cu_seqlens_k": cu,
            "s_aux": normal(rng, ps["s_aux"][0], 0.1)}, None


def mla_decode_paged(p, rng, scale):
    """deepseek_mla/example_mla_decode_paged: cache_seqlens = cache_seqlen +
    2 i, max_seqlen_pad = ceil(max / 256) * 256, block_table the identity
    page map (torch.arange(...).view(b, pad // 64)), KV / K_pe one page of
    64 rows per table entry. cache_seqlen 1024 (the script's 8192 is ~300
    GFLOP on the CPU reference)."""
    ps = next(iter(p.values()))
    b = ps["Q"][0][0]
    seqlen = max(64, int(1024 * scale))
    cache = (seqlen + 2 * np.arange(b)).astype(np.int32)
    pad = -(-int(cache.max()) // 256) * 256
    table = np.arange(b * pad // 64, dtype=np.int32).reshape(b, pad // 64)
    out = {"Q": normal(rng, ps["Q"][0]), "Q_pe": normal(rng, ps["Q_pe"][0]),
           "KV": normal(rng, (b * pad,) + tuple(ps["KV"][0][1:])),
           "K_pe": normal(rng, (b * pad,) + tuple(ps["K_pe"][0][1:])),
           "block_table": table, "cache_seqlens": cache}
    return out, None


def grouped_gemm_bwd(p, rng, scale):
    """grouped_gemm/example_grouped_gemm_bwd construct_inputs: group sizes
    summing to the instance's batch_sum, offsets their exclusive prefix
    sums, padded offsets rounded up to the 64-row padding (ceil((size + 1)
    / 64) * 64); N of the backward (B_shape1) 1024."""
    out = {}
    for kern, ps in p.items():
        count = ps["batch_sizes"][0][0]
        total = ps["A"][0][0]
        sizes = np.full(count, total // count, np.int32)
        sizes[-1] += total - sizes.sum()
        if (count, total) == (2, 192):
            sizes = np.array([64, 128], np.int32)  # the script's --batch_sizes
        offs = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int32)
        padded = np.concatenate([[0], np.cumsum(-(-(sizes[:-1] + 1) // 64) * 64)]).astype(np.int32)
        n = max(64, int(1024 * scale))
        d = {"batch_sizes": sizes, "batch_offsets": offs}
        if "batch_padded_offsets" in ps:
            d["batch_padded_offsets"] = padded
        if any(isinstance(x, str) for x in ps["B"][0]):
            d["B"] = normal(rng, fixed(ps["B"][0], B_shape1=n))
        out[kern] = d
    # The backward's grid, T.ceildiv(N, block_N) of N = grad_output.shape[1],
    # is a symbol of its own in the manifest ('grid', kind meta) that tlc-run
    # does not derive from B_shape1: bind it to the value the program
    # computes (block_N = 64).
    return out, f"-Dgrid={-(-n // 64)}"



def fp8_lighting_indexer(p, rng, scale):
    """deepseek_v32/fp8_lighting_indexer: per query row its key range
    [ks, ke) inside seq_len_kv, as generate_random_cu_seqlens builds them
    (packed sequences of ~2048 queries, each query attending causally from
    its sequence's first key). S = 1024, SKV = 4096 (the script's 4096 and
    8192 are ~80 GFLOP of emulated fp8 products for the CPU reference)."""
    s, skv = max(128, int(1024 * scale)), max(1024, int(4096 * scale))
    ks = np.zeros(s, np.int32)
    ke = np.zeros(s, np.int32)
    # The kernel stores whole blocks of block_N = 256 logits from the block's
    # smallest ks (no column guard): a range ending within 256 of seq_len_kv
    # would store past the row's end into the next row's first columns,
    # which other blocks write (a race in the program, not in the back
    # ends). Ranges end at seq_len_kv - 256 at most.
    end = skv - 256
    start, q, kv0 = 0, 0, end - s  # the earlier context of cp rank 3
    while q < s:
        n = min(s - q, int(rng.integers(s // 4, s // 2 + 1)))
        ks[q:q + n] = start
        ke[q:q + n] = np.minimum(kv0 + q + np.arange(n) + 1, end)
        start = ke[q + n - 1] if q + n < s else start
        q += n
    out = {}
    for kern in p:
        out[kern] = {"CuSeqLenKS": ks, "CuSeqLenKE": ke}
    out["mqa_attn_return_logits"].update(
        {"IndexK": normal(rng, (skv, p["mqa_attn_return_logits"]["IndexK"][0][1]))})
    return out, f"-Dseq_len_kv={skv}"  # clean_logits_ has no input of that extent


def topk_selector(p, rng, scale):
    """deepseek_v32/topk_selector test_topk_selector: starts 0, ends
    seq_len for every row, input standard normal; batch 64, seq_len 32768
    (the script's)."""
    b, s = max(2, int(64 * scale)), max(4096, int(32768 * scale))
    return {"input": normal(rng, (b, s)), "starts": np.zeros(b, np.int32),
            "ends": np.full(b, s, np.int32)}, None


def topk_radix_bins(x, shift):
    """topk_selector_3stages' bins: convert_to_uint16 (shift None: the
    float16 rounding's bits, sign-flipped so that the order is the values',
    high 8 bits) or convert_to_uint32's bits >> shift & 0xFF."""
    if shift is None:
        bits = x.astype(np.float16).view(np.uint16).astype(np.uint32)
        bits = np.where(x < 0, ~bits & 0xFFFF, bits | 0x8000)
        return (bits >> 8).astype(np.int64)
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = np.where(x < 0, ~bits & 0xFFFFFFFF, bits | 0x80000000)
    return ((bits >> shift) & 0xFF).astype(np.int64)


def topk_stage2_state(x, topk, radix=256):
    """What stages 1 and 2 of topk_selector_3stages leave for stage 3, per
    row of x (starts 0, ends seq_len): the high-byte histogram, and the
    threshold bin's candidates (the elements stage 2 appends to
    candidate_idx, ascending here: on the GPU their order is the atomics')."""
    hist = np.zeros((x.shape[0], radix), np.int32)
    cands = []
    for b in range(x.shape[0]):
        bins = topk_radix_bins(x[b], None)
        hist[b] = np.bincount(bins, minlength=radix)
        suffix = np.cumsum(hist[b][::-1])[::-1]  # s[t] = sum of bins >= t
        above = np.append(suffix[1:], 0)
        (t,) = np.nonzero((suffix > topk) & (above <= topk))
        assert len(t) == 1, "fewer elements than topk: no threshold bin"
        new_topk = topk - above[t[0]]
        cands.append(np.nonzero(bins == t[0])[0] if new_topk > 0 else
                     np.zeros(0, np.int64))
    return hist, cands


def topk_selector_3stages(p, rng, scale):
    """deepseek_v32/topk_selector_3stages test_topk_selector: batch 1,
    seq_len 131072, input standard normal, starts 0, ends seq_len. The three
    kernels run one after another on the GPU, stage 2 and 3 reading what the
    earlier ones left; here each gets that state as inputs (per kernel):
    stage 1 a zero histogram to accumulate into; stage 2 the histogram and
    zero counters; stage 3 the histogram and the threshold bin's candidates
    (topk_stage2_state). The candidate list must fit SMEM_INPUT_SIZE (4096,
    the script's stated assumption)."""
    stage = {}
    for k, ps in p.items():
        if "direct_counter" in ps:
            stage[2] = k
        elif "candidate_idx" in ps:
            stage[3] = k
        else:
            stage[1] = k
    b, s = 1, max(8192, int(131072 * scale))
    topk = p[stage[2]]["index"][0][1]
    cap = p[stage[3]]["candidate_idx"][0][1]
    radix = p[stage[1]]["global_histogram"][0][1]
    x = normal(rng, (b, s))
    starts, ends = np.zeros(b, np.int32), np.full(b, s, np.int32)
    hist, cands = topk_stage2_state(x, topk, radix)
    cidx = np.zeros((b, cap), np.int32)
    for r, c in enumerate(cands):
        assert len(c) <= cap, f"{len(c)} candidates exceed {cap}"
        cidx[r, :len(c)] = c
    count = np.array([len(c) for c in cands], np.int32)
    return {stage[1]: {"input": x, "starts": starts, "ends": ends,
                       "global_histogram": np.zeros((b, radix), np.int32)},
            stage[2]: {"input": x, "starts": starts, "ends": ends,
                       "global_histogram": hist,
                       "direct_counter": np.zeros((b, radix + 1), np.int32),
                       "candidate_count": np.zeros(b, np.int32)},
            stage[3]: {"input": x, "global_histogram": hist,
                       "candidate_idx": cidx, "candidate_count": count}}, None


def sparse_indices(rng, b, s_, hkv, topk, skv, keys):
    """The deepseek_v32 scripts' Indices: query row t selects
    randperm(keys(t))[:topk] of the keys, the rest of its slots SKV - 1
    (the scripts' filler is SKV, one row past KV; SKV - 1 is masked the
    same way by every caller's contract and lies inside the tensor)."""
    idx = np.full((b, s_, hkv, topk), skv - 1, np.int32)
    for bi in range(b):
        for t in range(s_):
            for g in range(hkv):
                sel = rng.permutation(keys(t))[:topk]
                idx[bi, t, g, :len(sel)] = sel
    return idx


def sparse_mla_fwd(p, rng, scale):
    """deepseek_v32/sparse_mla_fwd (and _pipelined) test_sparse_mla_fwd: query
    row t selects randperm(max(1, t))[:topk] of the keys, the rest of its
    topk slots a key the kernel masks (index > t). The script's filler is
    SKV, one row past KV (read, then masked); here SKV - 1 (> t since SKV >
    S), masked the same way and inside the tensor, so neither back end reads
    memory that is not the program's. Q and KV N(0, 1), the script's. B = 1,
    S = 64, SKV = 128 (the script's 4096 rows are ~2.3 TFLOP of bf16
    products for the CPU reference)."""
    ps = p[next(iter(p))]
    b = 1
    s_, skv = max(8, int(64 * scale)), max(16, int(128 * scale))
    _, _, h, dqk = ps["Q"][0]
    _, _, hkv, _ = ps["KV"][0]
    topk = ps["Indices"][0][3]
    idx = sparse_indices(rng, b, s_, hkv, topk, skv, lambda t: max(1, t))
    return {"Q": normal(rng, (b, s_, h, dqk)), "KV": normal(rng, (b, skv, hkv, dqk)),
            "Indices": idx}, None


def sparse_mla_fwd_pipelined(p, rng, scale):
    """deepseek_v32/sparse_mla_fwd_pipelined test: the instance fixes B = 1, S
    = 4096, SKV = 8192; q_start_index_s = 1024 and query row t selects
    randperm(min(max(1, t + 1024), SKV))[:topk] (KV_stride 1), the
    script's; the rest of its slots SKV - 1, which the kernel masks (above
    every row's last key), inside the tensor (the script's filler SKV is one
    row past it)."""
    ps = p[next(iter(p))]
    b, s_, h, dqk = ps["Q"][0]
    _, skv, hkv, _ = ps["KV"][0]
    topk = ps["Indices"][0][3]
    start, stride = 1024, 1
    idx = sparse_indices(rng, b, s_, hkv, topk, skv,
                         lambda t: min(max(1, (t + start) // stride), skv))
    return {"Q": normal(rng, (b, s_, h, dqk)), "KV": normal(rng, (b, skv, hkv, dqk)),
            "Indices": idx, "q_start_index_s": np.array([start], np.int32)}, None


def bf16(x):
    """x rounded to bfloat16 (nearest, ties to even) and widened back to
    float32: the values tlc-run's bf16 parameters hold after reading it."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def sparse_mla_bwd(p, rng, scale):
    """deepseek_v32/sparse_mla_bwd test_sparse_mla_bwd: the backward reads
    the forward's Lse and the preprocess's Delta; random ones make
    exp2(s - Lse) reach 2^8 and beyond (corpus-h200.md). Q, KV, dO N(0, 1)
    and Indices as sparse_mla_fwd_pipelined's (query row t selects
    randperm(max(1, t))[:topk], the rest of its slots SKV - 1, masked since
    SKV - 1 > t), the script's. Lse[t, h] = log2(sum_j 2^(q.k_j c)) over the
    selected keys j <= t with c = log2(e) / sqrt(DQKV) (the forward's
    sumexp), O = softmax over the same keys of q.k_j / sqrt(DQKV) times
    KV[j, :DV], rounded to bfloat16 as the forward writes it, Delta =
    rowsum(O * dO) (the preprocess's); dKV zero (the script's
    torch.zeros accumulator). Inputs are rounded to bfloat16 first, as
    tlc-run reads them; sums in float32, as the forward's (checked against
    the CPU target's sparse_mla_fwd Lse: 1.9e-6 apart at S = 64)."""
    ps = p["bwd"]
    b, s_, h, dqk = ps["Q"][0]
    _, skv, hkv, _ = ps["KV"][0]
    dv = ps["dO"][0][3]
    topk = ps["Indices"][0][3]
    idx = sparse_indices(rng, b, s_, hkv, topk, skv, lambda t: max(1, t))
    q = bf16(normal(rng, (b, s_, h, dqk)))
    kv = bf16(normal(rng, (b, skv, hkv, dqk)))
    do = bf16(normal(rng, (b, s_, h, dv)))
    lse = np.zeros((b, s_, h), np.float32)
    delta = np.zeros((b, s_, h), np.float32)
    c = np.log2(np.e) / np.sqrt(dqk)
    hg = h // hkv
    for bi in range(b):
        for t in range(s_):
            for g in range(hkv):
                sel = idx[bi, t, g]
                keys = kv[bi, sel[sel <= t], g]                 # [n, dqk]
                rows = slice(g * hg, (g + 1) * hg)
                e = (q[bi, t, rows] @ keys.T) * np.float32(c)
                m = e.max(axis=1, keepdims=True)
                w = np.exp2(e - m)
                l = w.sum(axis=1, keepdims=True)
                lse[bi, t, rows] = (np.log2(l) + m)[:, 0]
                o = bf16((w / l) @ keys[:, :dv])
                delta[bi, t, rows] = (o * do[bi, t, rows]).sum(axis=1)
    return {"bwd": {"Q": q, "KV": kv, "dO": do, "Indices": idx, "Lse": lse, "Delta": delta,
                    "dKV": np.zeros((b, skv, hkv, dqk), np.float32)}}, None


def attn_bwd(p, rng, kernel, layout):
    """The inputs of a flash-attention backward kernel as its forward and
    preprocess leave them: Q, K, V, dO N(0, 1) (the scripts'), O =
    softmax(Q K^T / sqrt(d)) V rounded to float16 as the forward writes it,
    lse = log2(sum_j 2^(q.k_j log2(e) / sqrt(d))) (the forward's), Delta =
    rowsum(O * dO) (the preprocess's) and float32 gradients zero (the
    scripts' torch.zeros accumulators of T.atomic_add). Query head h reads
    key/value head h // groups (groups = heads / kv heads); `layout` "bshd"
    ([batch, seq, heads, dim] tensors) or "bhsd". Non-causal, as the
    scripts' main()."""
    ps = p[kernel]

    def bshd(shape):
        return shape if layout == "bshd" else [shape[0], shape[2], shape[1], shape[3]]

    b, s_, h, dqk = bshd(ps["Q"][0])
    hkv = bshd(ps["K"][0])[2]
    dv = bshd(ps["V"][0])[3]
    groups = h // hkv
    q = normal(rng, (b, s_, h, dqk)).astype(np.float16)
    k = normal(rng, (b, s_, hkv, dqk)).astype(np.float16)
    v = normal(rng, (b, s_, hkv, dv)).astype(np.float16)
    do = normal(rng, (b, s_, h, dv)).astype(np.float16)
    lse = np.zeros((b, h, s_), np.float32)
    delta = np.zeros((b, h, s_), np.float32)
    c = np.log2(np.e) / np.sqrt(dqk)
    for bi in range(b):
        for hi in range(h):
            qs = q[bi, :, hi].astype(np.float32)
            ks, vs = (x[bi, :, hi // groups].astype(np.float32) for x in (k, v))
            t = (qs @ ks.T) * np.float32(c)  # log2 domain
            m = t.max(axis=1, keepdims=True)
            e = np.exp2(t - m)
            l = e.sum(axis=1, keepdims=True)
            lse[bi, hi] = (np.log2(l) + m)[:, 0]
            o = ((e / l) @ vs).astype(np.float16).astype(np.float32)
            delta[bi, hi] = (o * do[bi, :, hi].astype(np.float32)).sum(axis=1)

    def lay(x):
        return x if layout == "bshd" else np.ascontiguousarray(x.transpose(0, 2, 1, 3))

    out = {"Q": lay(q), "K": lay(k), "V": lay(v), "dO": lay(do), "lse": lse,
           "Delta": delta}
    for g in ("dQ", "dK", "dV"):
        if g in ps and ps[g][1] == "float32":
            out[g] = np.zeros(ps[g][0], np.float32)
    return {kernel: out}, None


def mha_bwd(p, rng, scale):
    """flash_attention/example_mha_bwd_bshd and _wgmma_pipelined: the
    backward reads its forward's lse and the preprocess's Delta; tlc-run's
    random ones make P = exp2(s - lse) reach 2^8 (corpus-h200.md): attn_bwd's
    inputs, dQ zero."""
    return attn_bwd(p, rng, "flashattn_bwd", "bshd")


def mha_bwd_bhsd(p, rng, scale):
    """flash_attention/example_mha_bwd_bhsd: as mha_bwd, [batch, heads,
    seq, dim] tensors (runs 14-16: 32,101 dQ, 440 dK and 385 dV elements
    off, up to 2.0, on random lse / Delta)."""
    return attn_bwd(p, rng, "flashattn_bwd", "bhsd")


def gqa_bwd(p, rng, scale):
    """flash_attention/example_gqa_bwd (the atomic-add backward the script
    runs by default): 32 query heads over 2 key/value heads (groups 16), dK
    and dV float32 T.atomic_add accumulators zero, as dQ (runs 14-16:
    186,633 dQ elements off, up to 0.92, on random lse / Delta)."""
    return attn_bwd(p, rng, "flashattn_bwd_atomic_add", "bshd")


def nsa_fwd_varlen(p, rng, scale):
    """deepseek_nsa/example_tilelang_nsa_fwd_varlen: nsa_varlen.py's valid
    batch (2 sequences in 64 tokens, token map, selected blocks at or before
    each token; its docstring)."""
    import tempfile
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import nsa_varlen
    with tempfile.TemporaryDirectory() as d:
        nsa_varlen.make(d)
        return {f[:-4]: np.load(os.path.join(d, f)) for f in os.listdir(d)}, None


# ---- delta-rule recurrences (prepare_input of each script) --------------

def gdn_chunk_delta_h(p, rng, scale):
    """gdn/example_chunk_delta_h: K, W, U L2-normalised N(0, 1), G
    chunk-local cumsum of logsigmoid, initial_state N(0, 1)."""
    (ps,) = p.values()
    return {"K": l2norm(normal(rng, ps["K"][0])), "W": l2norm(normal(rng, ps["W"][0])),
            "U": l2norm(normal(rng, ps["U"][0])),
            "G": logsigmoid_cumsum(rng, ps["G"][0]),
            "initial_state": normal(rng, ps["initial_state"][0])}, None


def kda_chunk_delta_h_fwd(p, rng, scale):
    """KDA/chunk_delta_h_fwd: as gdn's, with per-channel gates GK."""
    (ps,) = p.values()
    return {"K": l2norm(normal(rng, ps["K"][0])), "W": l2norm(normal(rng, ps["W"][0])),
            "U": l2norm(normal(rng, ps["U"][0])),
            "GK": logsigmoid_cumsum(rng, ps["GK"][0]),
            "initial_state": normal(rng, ps["initial_state"][0])}, None


def kda_chunk_delta_bwd(p, rng, scale):
    """KDA/chunk_delta_bwd: Q and dO N(0, 1) * 0.01, K L2-normalised, W,
    h0, dht, dv N(0, 1), GK chunk-local cumsum of logsigmoid."""
    (ps,) = p.values()
    sh = {k: v[0] for k, v in ps.items()}
    return {"Q": normal(rng, sh["Q"], 0.01), "K": l2norm(normal(rng, sh["K"])),
            "W": normal(rng, sh["W"]), "GK": logsigmoid_cumsum(rng, sh["GK"]),
            "h0": normal(rng, sh["h0"]), "dht": normal(rng, sh["dht"]),
            "dO": normal(rng, sh["dO"], 0.01), "dv": normal(rng, sh["dv"])}, None


def kda_chunk_inter_solve_fused(p, rng, scale):
    """KDA/chunk_inter_solve_fused: gk chunk-local cumsum of logsigmoid
    (the script: "needs to be a cumsum"), q, k, beta N(0, 1), Akk_diag
    ones."""
    (ps,) = p.values()
    out = {}
    for name, (shape, dtype, role) in ps.items():
        if role == "out" or shape is None:
            continue
        if name.lower() == "gk":
            out[name] = logsigmoid_cumsum(rng, shape)
        elif name == "Akk_diag":
            out[name] = np.ones(shape, np.float32)
        else:
            out[name] = normal(rng, shape)
    return out, None


GENERATORS = {
    "examples__flash_attention__example_mha_fwd_varlen": mha_fwd_varlen,
    "examples__flash_attention__example_gqa_fwd_varlen": gqa_fwd_varlen,
    "examples__attention_sink__example_gqa_sink_fwd_varlen": gqa_sink_fwd_varlen,
    "examples__flash_decoding__example_gqa_decode_varlen_logits": gqa_decode_varlen_logits,
    "examples__deepseek_mla__example_mla_decode_paged": mla_decode_paged,
    "examples__grouped_gemm__example_grouped_gemm_bwd": grouped_gemm_bwd,
    "examples__deepseek_v32__fp8_lighting_indexer": fp8_lighting_indexer,
    "examples__deepseek_v32__topk_selector": topk_selector,
    "examples__deepseek_v32__topk_selector_3stages": topk_selector_3stages,
    "examples__deepseek_v32__fp8_mqa_logits": fp8_lighting_indexer,
    "examples__deepseek_v32__sparse_mla_fwd": sparse_mla_fwd,
    "examples__deepseek_v32__sparse_mla_fwd_pipelined": sparse_mla_fwd_pipelined,
    "examples__deepseek_v32__sparse_mla_bwd": sparse_mla_bwd,
    "examples__deepseek_nsa__example_tilelang_nsa_fwd_varlen": nsa_fwd_varlen,
    "examples__flash_attention__example_mha_bwd_bshd": mha_bwd,
    "examples__flash_attention__example_mha_bwd_wgmma_pipelined": mha_bwd,
    "examples__flash_attention__example_mha_bwd_bhsd": mha_bwd_bhsd,
    "examples__flash_attention__example_gqa_bwd": gqa_bwd,
    "examples__gdn__example_chunk_delta_h": gdn_chunk_delta_h,
    "examples__KDA__chunk_delta_h_fwd": kda_chunk_delta_h_fwd,
    "examples__KDA__chunk_delta_bwd": kda_chunk_delta_bwd,
    "examples__KDA__chunk_inter_solve_fused": kda_chunk_inter_solve_fused,
}


# The .npy element type tlc-run reads for each dtype (bfloat16 and the fp8
# types as float32, rounded on reading; runtime/lib/DType.cpp).
NPY = {"float16": np.float16, "float32": np.float32, "float64": np.float64,
       "int32": np.int32, "int64": np.int64, "int8": np.int8, "uint8": np.uint8}


def main(argv):
    if len(argv) < 3 or argv[0] not in GENERATORS:
        sys.exit("usage: corpus_inputs.py NAME ARTIFACT_DIR OUT_DIR [--scale F]\n"
                 "NAME one of:\n  " + "\n  ".join(GENERATORS))
    name, art, out_dir = argv[:3]
    scale = float(argv[argv.index("--scale") + 1]) if "--scale" in argv else 1.0
    p = manifests(art)
    if not p:
        sys.exit(f"corpus_inputs.py: no manifest in {art}")
    rng = np.random.default_rng(0)
    files, note = GENERATORS[name](p, rng, scale)
    os.makedirs(out_dir, exist_ok=True)

    def save(path, param, a, kernels):
        dtype = next(p[k][param][1] for k in kernels if param in p[k])
        np.save(path, a.astype(NPY.get(dtype, np.float32)))

    for key, val in files.items():
        if isinstance(val, dict):  # per kernel
            os.makedirs(os.path.join(out_dir, key), exist_ok=True)
            for n, a in val.items():
                save(os.path.join(out_dir, key, n + ".npy"), n, a, [key])
        else:
            save(os.path.join(out_dir, key + ".npy"), key, val, list(p))
    if note:
        print(note)


if __name__ == "__main__":
    main(sys.argv[1:])

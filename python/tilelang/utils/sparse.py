"""``tilelang.utils.sparse``: 2:4 structured-sparse matrices for
``T.gemm_sp`` (torch only, no CUTLASS).

``compress(A)`` splits a dense [M, K] matrix whose every group of 4
consecutive K elements holds at most 2 nonzeros (float32: groups of 2, at
most 1) into

* ``A_sparse`` [M, K/2]: the kept elements of each group, in order;
* ``E`` [M, K/e_factor]: the metadata. Logically E[i, j] describes K
  elements ``j*e_factor ...`` of row i, 4 bits per group (group g of the
  element in bits 4g..4g+3). A 2:4 nibble holds the positions (0-3) of the
  two kept elements, the lower one in bits 0-1 and the higher in bits 2-3
  (the PTX ISA's sparse ``mma`` metadata: 0b0100, 0b1000, 0b1100, 0b1001,
  0b1101, 0b1110); a 1:2 (float32) nibble is 0b0100 when the first element
  is kept and 0b1110 when the second is. A group with fewer nonzeros keeps
  zeros at the lowest free positions.

Given ``arch``, E is in the physical order of
``tilelang.layout.make_cutlass_metadata_layout`` (CUTLASS's; what a kernel
that annotates E with it reads; ``metadata_offsets`` gives the places);
without it, in row-major order (a kernel without the annotation). ``arch``
also picks the metadata dtype: uint8 on sm_90; int16, or int32 for 8-bit
operands, otherwise.
"""

import torch

# a dtype -> (elements kept, group size)
_SPARSITY = {
    torch.float32: (1, 2),
    torch.float16: (2, 4),
    torch.bfloat16: (2, 4),
    torch.int8: (2, 4),
    torch.uint8: (2, 4),
}
for _name in ("float8_e4m3fn", "float8_e5m2"):
    if hasattr(torch, _name):
        _SPARSITY[getattr(torch, _name)] = (2, 4)


def _sparsity(dtype):
    if dtype not in _SPARSITY:
        raise ValueError(f"structured sparsity is not defined for {dtype}")
    return _SPARSITY[dtype]


def _arch_major(arch):
    """9 for "9.0", "sm_90a" or (9, 0); None for None."""
    if arch is None:
        return None
    if isinstance(arch, tuple):
        return int(arch[0])
    text = str(arch)
    if text.startswith("sm_"):
        return int(text[3])
    return int(text.split(".")[0])


def metadata_dtype(dtype, arch=None):
    """The metadata dtype ``compress`` gives for operand ``dtype``: uint8 on
    sm_90 (``arch`` "9.0"); on sm_8x (and without ``arch``) int32 for
    8-bit operands, int16 otherwise."""
    _sparsity(dtype)
    major = _arch_major(arch)
    if major is not None and major >= 9:
        return torch.uint8
    return torch.int32 if torch.empty((), dtype=dtype).element_size() == 1 \
        else torch.int16


def e_factor(dtype, meta_dtype):
    """K elements of ``dtype`` that one ``meta_dtype`` element describes."""
    _, group = _sparsity(dtype)
    bits = torch.empty((), dtype=meta_dtype).element_size() * 8
    return bits // 4 * group


def _offsets_sm8x(m, k, bits):
    """Flat physical offsets of every logical (i, j) of an [m, k] sm_8x
    metadata matrix of ``bits``-bit elements (make_cutlass_metadata_layout's
    order): rows interleaved in groups of 32 (16-bit) or 16 (32-bit), the
    off-diagonal elements of each 2x2 block swapped, pairs of columns
    stored column-major."""
    group = 32 if bits == 16 else 16
    inter = 4 if bits == 16 else 2
    if m % group:
        raise ValueError(f"metadata M={m} must be a multiple of {group}")
    if k % 2:
        raise ValueError(f"metadata K={k} must be even")
    i = torch.arange(m).view(m, 1).expand(m, k)
    j = torch.arange(k).view(1, k).expand(m, k)
    r = i // group * group + (i % 8) * inter + (i % group) // 8
    swap = ((1 - r % 2) & (j % 2)) - ((r % 2) & (1 - j % 2))
    row, col = r + swap, j - swap
    return (col // 2) * m * 2 + row * 2 + col % 2


def _offsets_sm90(m, k, a_bits, block_k):
    """Flat physical offsets of an [m, k] sm_90 (8-bit) metadata matrix for
    ``a_bits``-bit operands and K tile ``block_k`` (at most 128): atoms of
    64 rows, repeated down the rows, then across the columns."""
    block_k = min(block_k, 128)
    atom_k = 512 // a_bits
    if block_k % atom_k:
        raise ValueError(f"Tile K is too small, which should be at least "
                         f"{atom_k}")
    if a_bits in (16, 32):
        shape = [8, 2, 4, 2 if a_bits == 16 else 1, 2, block_k // atom_k]
        stride = [0] * 6
        acc = 1
        for d in (3, 1, 5, 0, 4, 2):  # fastest mode first
            stride[d] = acc
            acc *= shape[d]
        shape_i, shape_k = shape[:3], shape[3:]
        stride_i, stride_k = stride[:3], stride[3:]
    elif a_bits == 8:
        shape_i, stride_i = [64], [block_k // 8]
        shape_k, stride_k = [block_k // 8], [1]
    else:
        raise ValueError(f"no sm_90 metadata layout for {a_bits}-bit operands")
    atom = 1
    for s in shape_i + shape_k:
        atom *= s
    cols = 1
    for s in shape_k:
        cols *= s
    rep_i = -(-m // 64)
    shape_i, stride_i = shape_i + [rep_i], stride_i + [atom]
    shape_k, stride_k = shape_k + [-(-k // cols)], stride_k + [atom * rep_i]

    def place(x, shapes, strides):
        off = torch.zeros_like(x)
        for n, (s, st) in enumerate(zip(shapes, strides)):
            digit = x % s if n + 1 < len(shapes) else x
            off = off + digit * st
            x = x // s
        return off

    i = torch.arange(m).view(m, 1).expand(m, k)
    j = torch.arange(k).view(1, k).expand(m, k)
    return place(i, shape_i, stride_i) + place(j, shape_k, stride_k)


def metadata_offsets(m, k, dtype, arch, block_k=None):
    """[m, k] flat offsets at which ``make_cutlass_metadata_layout`` (for
    operand ``dtype`` and ``arch`` "8.0", "8.9", "9.0") places the logical
    metadata elements E[i, j]."""
    major = _arch_major(arch)
    bits = torch.empty((), dtype=dtype).element_size() * 8
    if major >= 9:
        if block_k is None:
            raise ValueError("the sm_90 metadata layout needs block_k")
        return _offsets_sm90(m, k, bits, block_k)
    if major == 8:
        return _offsets_sm8x(m, k, 32 if bits == 8 else 16)
    raise ValueError(f"no metadata layout for arch {arch}")


def _encode(dense):
    """(A_sparse, logical nibbles [M, K/group]) of a 2-D dense matrix."""
    kept, group = _sparsity(dense.dtype)
    m, k = dense.shape
    if k % group:
        raise ValueError(f"K = {k} is not a multiple of the group size {group}")
    groups = dense.reshape(m, k // group, group)
    nz = groups != 0
    if (nz.sum(-1) > kept).any():
        raise ValueError(f"the matrix is not {kept}:{group} sparse: a group "
                         f"of {group} holds more than {kept} nonzeros")
    # Kept positions: the nonzeros, then the lowest zero positions, sorted.
    pos = torch.arange(group, device=dense.device)
    rank = torch.where(nz, pos, pos + group)
    keep = rank.sort(-1).values[..., :kept] % group
    keep = keep.sort(-1).values
    values = groups.gather(-1, keep).reshape(m, k // group * kept)
    if kept == 1:
        nibble = torch.where(keep[..., 0] == 0, 0b0100, 0b1110)
    else:
        nibble = keep[..., 0] | (keep[..., 1] << 2)
    return values, nibble.to(torch.int64)


def compress(A, transposed=False, arch=None, block_k=None, layout=True,
             **kwargs):
    """``(A_sparse, E)`` of a 2:4-sparse (float32: 1:2) [M, K] matrix. E has
    ``arch``'s metadata dtype and, given ``arch`` (and ``layout``), the
    physical order of ``make_cutlass_metadata_layout(E, A.dtype, arch,
    block_k=block_k)``, what a kernel annotating E with it reads; row-major
    otherwise."""
    if transposed:
        raise NotImplementedError("compress(transposed=True): tlc's "
                                  "T.gemm_sp takes A_sparse as [M, K/2]")
    if A.dim() != 2:
        raise ValueError(f"compress expects a 2-D matrix, got {A.dim()}-D")
    values, nibbles = _encode(A)
    meta = metadata_dtype(A.dtype, arch)
    bits = torch.empty((), dtype=meta).element_size() * 8
    per = bits // 4
    m, groups = nibbles.shape
    if groups % per:
        raise ValueError(f"K = {A.shape[1]} is not a multiple of e_factor "
                         f"{e_factor(A.dtype, meta)}")
    nib = nibbles.view(m, groups // per, per)
    shifts = torch.arange(per, device=A.device) * 4
    words = (nib << shifts).sum(-1)
    if meta != torch.uint8:
        words = torch.where(words >= 1 << (bits - 1), words - (1 << bits),
                            words)
    E = words.to(meta)
    if arch is not None and layout:
        off = metadata_offsets(E.shape[0], E.shape[1], A.dtype, arch,
                               block_k).reshape(-1).to(A.device)
        if off.max().item() >= E.numel():
            raise ValueError(f"metadata [{E.shape[0]}, {E.shape[1]}] does not "
                             "fill whole layout atoms")
        flat = torch.empty(E.numel(), dtype=meta, device=A.device)
        flat[off] = E.reshape(-1)
        E = flat.view(E.shape)
    return values.contiguous(), E.contiguous()


def compress_sm90(A, block_k, transposed=False):
    """Older TileLang's name: ``compress(A, transposed, arch="9.0",
    block_k=block_k)``, E in the order of the sm_90 metadata layout
    (``make_metadata_layout(E, ..., arch="9.0", backend="cutlass",
    block_k=block_k)``)."""
    return compress(A, transposed=transposed, arch="9.0", block_k=block_k)


def compress_sm80(A, transposed=False):
    """Older TileLang's name: ``compress(A, transposed, arch="8.0")``."""
    return compress(A, transposed=transposed, arch="8.0")


def _mask(M, K, dtype, device, generator=None):
    """A random keep-mask: per group of 4 (float32: 2) exactly half kept."""
    kept, group = _sparsity(dtype)
    scores = torch.rand(M, K // group, group, generator=generator)
    keep = scores.topk(kept, dim=-1).indices
    mask = torch.zeros(M, K // group, group, dtype=torch.bool)
    mask.scatter_(-1, keep, True)
    return mask.view(M, K).to(device)


def randn_semi_sparse(M, K, dtype=torch.float16, device="cuda",
                      transposed=False):
    """A random normal [M, K] matrix (``[K, M]`` when ``transposed``) with
    2:4 (float32: 1:2) sparsity along K."""
    x = torch.randn(M, K, device=device).to(dtype)
    x = torch.where(_mask(M, K, dtype, device), x, torch.zeros_like(x))
    return x.t().contiguous() if transposed else x


def randint_semi_sparse(M, K, low, high, dtype=torch.int8, device="cuda",
                        transposed=False):
    """Random integers in [low, high) with 2:4 sparsity along K."""
    x = torch.randint(low, high, (M, K), device=device).to(dtype)
    x = torch.where(_mask(M, K, dtype, device), x, torch.zeros_like(x))
    return x.t().contiguous() if transposed else x


def arange_semi_sparse(M, K, dtype=torch.float16, device="cuda",
                       transposed=False):
    """0, 1, 2, ... over the [M, K] matrix with a fixed 2:4 (1:2) pattern:
    group g keeps the positions of the (g mod 6)-th pair (0,1), (0,2), ...
    (float32: position g mod 2)."""
    kept, group = _sparsity(dtype)
    x = torch.arange(M * K, device=device, dtype=torch.float64).view(M, K)
    g = torch.arange(K // group).repeat_interleave(group).view(1, K)
    p = torch.arange(K).view(1, K) % group
    if kept == 1:
        keep = p == g % 2
    else:
        pairs = torch.tensor([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
        sel = pairs[g % 6]
        keep = (p.unsqueeze(-1) == sel).any(-1)
    x = torch.where(keep.to(device).expand(M, K), x, torch.zeros_like(x))
    x = x.to(dtype)
    return x.t().contiguous() if transposed else x

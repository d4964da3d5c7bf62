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

E is returned in row-major (logical) order, the order tlc's ``T.gemm_sp``
reads whatever layout the kernel annotates E with (tlc does not model
``make_cutlass_metadata_layout``'s CUTLASS order; it warns at the
annotation). ``arch`` only picks the metadata dtype (uint8 on sm_90; int16,
or int32 for 8-bit operands, otherwise), as the public scripts size E.
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


def compress(A, transposed=False, arch=None, block_k=None, **kwargs):
    """``(A_sparse, E)`` of a 2:4-sparse (float32: 1:2) [M, K] matrix, E
    row-major with ``arch``'s metadata dtype (``block_k`` is accepted for
    TileLang's signature; the row-major order does not depend on it)."""
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
    return values.contiguous(), E.contiguous()


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

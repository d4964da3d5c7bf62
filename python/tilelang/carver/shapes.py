"""Carver templates of computations that are not one GEMM: element-wise
maps, general reductions and flash attention.

Each ranks candidate tiles with the same plain measures as the GEMM
templates (``template.py``):

* wave efficiency: tiles / (waves x SMs);
* edge efficiency: the share of a tile's elements inside the problem;
* for element-wise maps and reductions, how fully the block's threads are
  used: a block of ``threads`` threads moving ``vector`` elements each (16
  bytes) should cover its tile at least once, and a block should hold at
  least 4 warps (one per scheduler of an SM);
* for attention, the block's reuse of K and V (query rows per block,
  saturating at 128), key columns per step (saturating at 64: each step
  rescales the running softmax) and a pipeline two stages deep where the
  key length spans several blocks; tiles whose Q, K and V tiles do not fit
  the device's shared memory per block are not proposed.

The hints are :class:`~tilelang.carver.roller.hint.Hint` objects:
``block`` holds the tile's extent along each spatial axis (for attention:
query rows, key columns), ``thread`` the threads along them, ``rstep`` the
reduction step along each reduced axis (for attention: the head
dimension).
"""

import itertools
import math

from .._dtype import dtype as _dtype
from .roller.hint import Hint
from .roller.rasterization import NoRasterization

_POW2 = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def _positive_shape(name, shape):
    if not shape or not all(isinstance(s, int) and s > 0 for s in shape):
        raise ValueError(f"{name}: shape must be a non-empty list of positive "
                         f"ints, got {shape!r}")
    return list(shape)


def _edge(extents, tile):
    inside = math.prod(extents)
    covered = math.prod(math.ceil(e / t) * t for e, t in zip(extents, tile))
    return inside / covered


def _waves(tiles, sms):
    waves = math.ceil(tiles / sms)
    return tiles / (waves * sms)


def _vector(dtype_name):
    return max(1, 16 // max(1, _dtype(dtype_name).bits // 8))


def _tiles_over(extents, budget):
    """Power-of-two tiles over ``extents`` (each at most its extent rounded
    up to a power of two) of at most ``budget`` elements."""
    choices = [[p for p in _POW2 if p < 2 * e] for e in extents]
    for tile in itertools.product(*choices):
        if math.prod(tile) <= budget:
            yield list(tile)


def _thread_split(tile, threads):
    """Threads along each axis of ``tile`` (spatial axes, then reduced
    steps), filled innermost first, each a power of two not above the
    tile's extent there."""
    left = threads
    split = [1] * len(tile)
    for i in reversed(range(len(tile))):
        take = min(left, tile[i])
        split[i] = take
        left //= take
    return split


class _ShapeTemplate:
    kind = "shape"

    def __init__(self):
        self.arch = None

    def with_arch(self, arch):
        self.arch = arch
        return self

    def _device(self):
        if self.arch is None:
            from .arch import auto_infer_current_arch
            self.arch = auto_infer_current_arch()
        return self.arch


class ElementwiseTemplate(_ShapeTemplate):
    """An element-wise map over ``shape`` of ``dtype``."""

    kind = "elementwise"

    def __init__(self, shape=None, dtype="float16"):
        super().__init__()
        self.shape = _positive_shape("ElementwiseTemplate", shape)
        self.dtype = dtype

    def equivalent_function(self):
        return {"kind": self.kind, "spatial": list(self.shape),
                "reduce": [], "dtype": self.dtype}

    def recommend_hints(self, topk=10):
        return _spatial_hints(self.shape, [], self.dtype, self._device(),
                              topk)


class GeneralReductionTemplate(_ShapeTemplate):
    """A reduction over ``shape``: ``structure`` names each axis S
    (spatial, kept) or R (reduced), e.g. ``"SSR"`` for a row sum of a
    3-D tensor."""

    kind = "reduction"

    def __init__(self, structure="SSR", shape=None, dtype="float16"):
        super().__init__()
        self.shape = _positive_shape("GeneralReductionTemplate", shape)
        if len(structure) != len(self.shape) or set(structure) - {"S", "R"}:
            raise ValueError(f"GeneralReductionTemplate: structure "
                             f"{structure!r} must name S or R for each of "
                             f"the {len(self.shape)} axes")
        self.structure = structure
        self.dtype = dtype

    def _axes(self, letter):
        return [e for e, s in zip(self.shape, self.structure) if s == letter]

    def equivalent_function(self):
        return {"kind": self.kind, "spatial": self._axes("S"),
                "reduce": self._axes("R"), "dtype": self.dtype}

    def recommend_hints(self, topk=10):
        return _spatial_hints(self._axes("S"), self._axes("R"), self.dtype,
                              self._device(), topk)


def _spatial_hints(spatial, reduce, dtype_name, arch, topk):
    """Tiles of the spatial axes (and steps along the reduced ones)."""
    vector = _vector(dtype_name)
    sms = arch.compute_max_core
    found = []
    spatial = spatial or [1]
    for tile in _tiles_over(spatial, 1 << 14):
        for threads in (64, 128, 256, 512):
            for rstep in (_tiles_over(reduce, 1 << 12) if reduce else [[]]):
                work = math.prod(tile) * max(1, math.prod(rstep))
                if work < threads:  # idle threads
                    continue
                smem = math.prod(tile) * max(1, math.prod(rstep)) * \
                    max(1, _dtype(dtype_name).bits // 8)
                if smem > arch.smem_cap:
                    continue
                tiles = math.prod(math.ceil(e / t)
                                  for e, t in zip(spatial, tile))
                # A block of under 4 warps leaves an SM's schedulers idle.
                fill = min(1.0, work / (threads * vector)) * \
                    min(1.0, threads / 128)
                r_edge = _edge(reduce, rstep) if reduce else 1.0
                score = _waves(tiles, sms) * _edge(spatial, tile) * \
                    r_edge * fill
                found.append((score, -work, threads, tile, rstep))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    hints = []
    for score, _, threads, tile, rstep in found[:topk]:
        hints.append(Hint(tile, [], rstep, 1, NoRasterization(), False,
                          score, _thread_split(tile + rstep, threads)))
    return hints


class FlashAttentionTemplate(_ShapeTemplate):
    """Attention of ``batch_size x num_heads`` heads, ``seq_length``
    queries against ``seq_kv_length`` keys of ``head_dim``."""

    kind = "flash_attention"

    def __init__(self, batch_size=1, num_heads=1, seq_length=None,
                 seq_kv_length=None, head_dim=None, in_dtype="float16",
                 accum_dtype="float16", out_dtype="float16"):
        super().__init__()
        for name, v in (("batch_size", batch_size), ("num_heads", num_heads),
                        ("seq_length", seq_length),
                        ("seq_kv_length", seq_kv_length),
                        ("head_dim", head_dim)):
            if not isinstance(v, int) or v <= 0:
                raise ValueError(f"FlashAttentionTemplate: {name} must be a "
                                 f"positive int, got {v!r}")
        self.batch_size, self.num_heads = batch_size, num_heads
        self.seq_length, self.seq_kv_length = seq_length, seq_kv_length
        self.head_dim = head_dim
        self.in_dtype, self.accum_dtype = in_dtype, accum_dtype
        self.out_dtype = out_dtype

    def equivalent_function(self):
        return {"kind": self.kind,
                "spatial": [self.batch_size, self.num_heads, self.seq_length],
                "reduce": [self.seq_kv_length, self.head_dim],
                "dtype": self.in_dtype}

    def recommend_hints(self, topk=10):
        arch = self._device()
        elem = max(1, _dtype(self.in_dtype).bits // 8)
        sms = arch.compute_max_core
        found = []
        for bm in (16, 32, 64, 128, 256):
            for bn in (16, 32, 64, 128, 256):
                for stages in (1, 2, 3):
                    # Q tile once, K and V tiles per stage.
                    smem = (bm + 2 * stages * bn) * self.head_dim * elem
                    if smem > arch.smem_cap:
                        continue
                    warps = max(1, min(8, bm // 16))
                    tiles = self.batch_size * self.num_heads * \
                        math.ceil(self.seq_length / bm)
                    kv_steps = math.ceil(self.seq_kv_length / bn)
                    deep = 1.0 if stages >= 2 or kv_steps <= 1 else 0.8
                    reuse = min(1.0, bm / 128)
                    # Per-step overhead (rescaling the running softmax)
                    # amortised over the key columns of a step.
                    step = min(1.0, bn / 64)
                    score = _waves(tiles, sms) * \
                        _edge([self.seq_length], [bm]) * \
                        _edge([self.seq_kv_length], [bn]) * reuse * deep * \
                        step
                    found.append((score, smem, bm, bn, stages, warps))
        found.sort(key=lambda t: (-t[0], t[1]))
        hints = []
        for score, _, bm, bn, stages, warps in found[:topk]:
            hints.append(Hint([bm, bn], [bm // warps, bn], [self.head_dim],
                              stages, NoRasterization(), True, score,
                              warp_size=getattr(arch, "warp_size", 32)))
        return hints


__all__ = ["ElementwiseTemplate", "GeneralReductionTemplate",
           "FlashAttentionTemplate"]

"""Carver templates: a computation's shape, turned into tile hints.

``recommend_hints`` enumerates GEMM tilings (block M x N x K, a warp grid
of 1 to 8 warps whose warp tiles are multiples of the 16 x 16 (x 8) MMA
tile, 1 to 4 pipeline stages) that fit the device's shared memory per
block, and ranks them by

* wave efficiency: tiles / (waves x SMs), the share of the last wave busy;
* edge efficiency: the share of computed elements inside the problem;
* arithmetic intensity of the block, bm * bn / (bm + bn), saturating at a
  128 x 128 block, and of the warp tile, saturating at 64 x 64;
* a pipeline at least two stages deep where K spans several steps.

On a CDNA device (:class:`~tilelang.carver.arch.CDNA`) a warp is a
64-lane wavefront (threads = waves x 64), a tiling must also fit the
register file (accumulator of the wave tile in at most 256 AGPRs per lane,
all registers in 512) and the LDS of a workgroup, and the score is scaled
by occupancy: waves per SIMD, from how many workgroups the CU's LDS and
registers hold at once (below 2 waves per SIMD a wave's memory latency is
not hidden).

Convolutions are ranked as their implicit GEMM (M = N*OH*OW, N = F, K =
KH*KW*C); a GEMV as a GEMM with M = 1.
"""

import math

from .._dtype import dtype as _dtype
from .roller.hint import Hint
from .roller.rasterization import NoRasterization, Rasterization2DRow


class _Description:
    """What ``equivalent_function()`` gives: the GEMM a template is."""

    def __init__(self, kind, M, N, K, in_dtype, out_dtype, accum_dtype):
        self.kind, self.M, self.N, self.K = kind, M, N, K
        self.in_dtype, self.out_dtype = in_dtype, out_dtype
        self.accum_dtype = accum_dtype

    def __repr__(self):
        return (f"<{self.kind} as GEMM M={self.M} N={self.N} K={self.K} "
                f"{self.in_dtype}->{self.out_dtype}>")


class BaseTemplate:
    kind = "template"

    def __init__(self):
        self.arch = None

    def with_arch(self, arch):
        self.arch = arch
        return self

    def gemm_shape(self):
        raise NotImplementedError

    def equivalent_function(self):
        M, N, K = self.gemm_shape()
        return _Description(self.kind, M, N, K, self.in_dtype,
                            self.out_dtype, self.accum_dtype)

    def recommend_hints(self, topk=10):
        if self.arch is None:
            from .arch import auto_infer_current_arch
            self.arch = auto_infer_current_arch()
        M, N, K = self.gemm_shape()
        # MFMA and MMA accumulate in 32-bit registers (f16 results too);
        # a float64 accumulator takes two.
        acc = self.accum_dtype
        acc_bytes = 8 if acc in ("float64", "double") else 4
        return gemm_hints(M, N, K, _dtype(self.in_dtype).bits // 8 or 1,
                          self.arch, topk, acc_bytes)


class MatmulTemplate(BaseTemplate):
    kind = "matmul"

    def __init__(self, M=None, N=None, K=None, trans_A=False, trans_B=True,
                 in_dtype="float16", out_dtype="float16",
                 accum_dtype="float16", with_bias=False):
        super().__init__()
        self.M, self.N, self.K = M, N, K
        self.trans_A, self.trans_B = trans_A, trans_B
        self.in_dtype, self.out_dtype = in_dtype, out_dtype
        self.accum_dtype = accum_dtype
        self.with_bias = with_bias

    def gemm_shape(self):
        for name in ("M", "N", "K"):
            if not isinstance(getattr(self, name), int):
                raise ValueError(f"MatmulTemplate: {name} must be an int, "
                                 f"got {getattr(self, name)!r}")
        return self.M, self.N, self.K


class GEMVTemplate(MatmulTemplate):
    kind = "gemv"

    def __init__(self, N=None, K=None, **kwargs):
        super().__init__(M=1, N=N, K=K, **kwargs)


class ConvTemplate(BaseTemplate):
    kind = "conv2d"

    def __init__(self, N=None, C=None, H=None, W=None, F=None, K=None,
                 S=1, D=1, P=0, in_dtype="float16", out_dtype="float16",
                 accum_dtype="float", with_bias=False):
        super().__init__()
        self.N, self.C, self.H, self.W, self.F, self.K = N, C, H, W, F, K
        self.S, self.D, self.P = S, D, P
        self.in_dtype, self.out_dtype = in_dtype, out_dtype
        self.accum_dtype = accum_dtype

    def gemm_shape(self):
        OH = (self.H + 2 * self.P - self.D * (self.K - 1) - 1) // self.S + 1
        OW = (self.W + 2 * self.P - self.D * (self.K - 1) - 1) // self.S + 1
        return self.N * OH * OW, self.F, self.K * self.K * self.C


def _score(M, N, K, bm, bn, bk, wm, wn, stages, sms):
    tiles = math.ceil(M / bm) * math.ceil(N / bn)
    waves = math.ceil(tiles / sms)
    wave_eff = tiles / (waves * sms)
    edge_eff = (M * N) / (math.ceil(M / bm) * bm * math.ceil(N / bn) * bn)
    block_int = min(1.0, (bm * bn / (bm + bn)) / 64.0)
    warp_int = min(1.0, (wm * wn / (wm + wn)) / 32.0)
    k_steps = math.ceil(K / bk)
    deep = 1.0 if stages >= 2 or k_steps <= 1 else 0.8
    k_edge = K / (k_steps * bk)
    return wave_eff * edge_eff * block_int * warp_int * deep * k_edge


def _cdna_fit(arch, bm, bn, wm, wn, smem, acc_bytes):
    """Occupancy factor of a tiling on a CDNA device (0: it does not fit):
    waves per SIMD over 2, at most 1."""
    acc, vgprs = arch.vgprs_per_lane(wm, wn, acc_bytes)
    if acc > 256:
        return 0.0
    waves = (bm // wm) * (bn // wn)
    blocks = arch.blocks_per_cu(waves * 64, smem, vgprs)
    return min(1.0, blocks * waves / 4 / 2)


def gemm_hints(M, N, K, elem_bytes, arch, topk=10, acc_bytes=4):
    """The ``topk`` best GEMM tilings of an M x N x K problem on ``arch``
    (``acc_bytes``: bytes of an accumulator element)."""
    if min(M, N, K) <= 0:
        raise ValueError(f"carver: empty GEMM {M}x{N}x{K}")
    cdna = getattr(arch, "platform", "") == "CDNA"
    found = []
    for bm in (16, 32, 64, 128, 256):
        for bn in (16, 32, 64, 128, 256):
            for bk in (32, 64, 128):
                if bk * elem_bytes > 256:
                    continue
                for wm in (16, 32, 64, 128):
                    for wn in (16, 32, 64, 128):
                        if bm % wm or bn % wn:
                            continue
                        warps = (bm // wm) * (bn // wn)
                        if warps not in (1, 2, 4, 8):
                            continue
                        for stages in (1, 2, 3, 4):
                            smem = stages * (bm + bn) * bk * elem_bytes
                            if smem > arch.smem_cap:
                                continue
                            occupancy = 1.0
                            if cdna:
                                occupancy = _cdna_fit(arch, bm, bn, wm, wn,
                                                      smem, acc_bytes)
                                if occupancy == 0:
                                    continue
                            # Accumulator registers per thread (fp32).
                            elif wm * wn // 32 > 128:
                                continue
                            s = occupancy * _score(M, N, K, bm, bn, bk, wm,
                                                   wn, stages,
                                                   arch.compute_max_core)
                            found.append((s, smem, bm, bn, bk, wm, wn,
                                          stages))
    # Best score first; ties to the smaller shared-memory footprint.
    found.sort(key=lambda t: (-t[0], t[1], -t[2] * t[3]))
    hints = []
    for s, _, bm, bn, bk, wm, wn, stages in found[:topk]:
        tiles = math.ceil(M / bm) * math.ceil(N / bn)
        plan = Rasterization2DRow(10) if tiles > arch.compute_max_core \
            else NoRasterization()
        hints.append(Hint([bm, bn], [wm, wn], [bk], stages, plan, True, s,
                          warp_size=arch.warp_size))
    return hints


__all__ = ["MatmulTemplate", "GEMVTemplate", "ConvTemplate", "gemm_hints"]

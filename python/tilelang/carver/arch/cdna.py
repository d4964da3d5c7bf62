"""``tilelang.carver.arch.cdna``: AMD CDNA parts (Instinct MI200, MI300,
MI350) as the carver sees them.

The figures, and where they come from:

* Wavefront: 64 lanes (CDNA3 ISA reference guide, "Wave64").
* Compute units: MI250X 220 CUs in two dies that ROCm shows as two devices
  of 110 (gfx90a); MI300X 304 (gfx942); MI355X 256 (gfx950) (AMD Instinct
  data sheets).
* LDS: 64 KiB per CU, at most 64 KiB per workgroup, on CDNA2 and CDNA3
  (CDNA3 ISA, "Local Data Share"); 160 KiB on CDNA4 / gfx950 (CDNA4 ISA).
* Vector registers: each SIMD's file holds 512 32-bit registers per lane
  (512 KiB per CU of 4 SIMDs, MI300 CDNA3 white paper). A wave may use up
  to 512 of them: 256 architectural VGPRs and 256 accumulation registers
  (AGPRs), allocated from one unified file in granules of 8 (CDNA3 ISA,
  "Vector GPRs"; LLVM AMDGPUUsage for gfx90a / gfx942).
* At most 8 waves per SIMD and 4 SIMDs per CU on gfx90a, gfx942 and gfx950
  (LLVM AMDGPUUsage, "waves per execution unit"); a workgroup has at most
  1024 work-items (16 waves).
* MFMA tiles: 16 x 16 and 32 x 32 outputs (``v_mfma_f32_16x16x16_f16``,
  ``v_mfma_f32_32x32x8_f16``; 8-bit operands with twice the K).
"""

import re

from . import TileDevice

# arch -> (CUs of one device, LDS per CU and per workgroup in bytes)
_KNOWN = {"gfx90a": (110, 65536), "gfx942": (304, 65536),
          "gfx950": (256, 163840)}

VGPRS_PER_SIMD_LANE = 512   # unified VGPR + AGPR file, per lane of a SIMD
ARCH_VGPRS_PER_WAVE = 256   # architectural VGPRs one wave may address
ACC_VGPRS_PER_WAVE = 256    # AGPRs one wave may address
VGPR_GRANULE = 8            # allocation granularity (gfx90a and newer)
SIMDS_PER_CU = 4
WAVES_PER_SIMD = 8
MAX_WORKGROUP_SIZE = 1024


def _arch_name(target):
    """The first ``gfxNNN`` in a target's text (``"hip:gfx942"``, ``"hip
    -mcpu=gfx90a"``, ``"gfx942:sramecc+:xnack-"``), or None."""
    m = re.search(r"gfx[0-9a-f]{3,4}", str(target))
    return m.group(0) if m else None


def _rocm_properties():
    """ROCm torch's device properties (torch.cuda on ROCm), or None."""
    try:
        import torch
    except ImportError:
        return None
    if not getattr(torch.version, "hip", None):
        return None
    try:
        return torch.cuda.get_device_properties(torch.cuda.current_device())
    except Exception:
        return None


class CDNA(TileDevice):
    """An AMD CDNA device: the part ``target`` names (``"hip:gfx942"``),
    else the current ROCm device's (``torch.version.hip``), else gfx942.
    ``compute_max_core`` counts CUs, ``smem_cap`` is the LDS a workgroup
    may use, ``reg_cap`` the 32-bit registers of one CU."""

    platform = "CDNA"

    def __init__(self, target="hip"):
        props = _rocm_properties()
        name = _arch_name(target)
        if name is None and props is not None:
            name = _arch_name(getattr(props, "gcnArchName", ""))
        if name is None:
            name = "gfx942"
        if name not in _KNOWN:
            raise ValueError(f"carver: unknown CDNA architecture {name!r} "
                             f"(known: {', '.join(sorted(_KNOWN))})")
        cus, lds = _KNOWN[name]
        if props is not None and \
                _arch_name(getattr(props, "gcnArchName", "")) == name:
            cus = getattr(props, "multi_processor_count", cus) or cus
        super().__init__(cus, lds,
                         VGPRS_PER_SIMD_LANE * 64 * SIMDS_PER_CU, 64, -1)
        self.target = target
        self.arch = name
        self.lds_per_cu = lds
        self.compute_capability = name

    def __repr__(self):
        return (f"CDNA({self.arch}, {self.compute_max_core} CUs, "
                f"LDS {self.smem_cap} B)")

    def vgprs_per_lane(self, wave_m, wave_n, acc_bytes=4):
        """Estimated registers per lane of a wave computing a ``wave_m x
        wave_n`` MFMA tile: its accumulator (``wave_m * wave_n`` values over
        64 lanes), the A and B fragments of one 32-byte K step, and 32 for
        addresses and loop state; rounded up to the allocation granule.
        Returns (accumulator registers, total)."""
        acc = -(-wave_m * wave_n * acc_bytes // (4 * 64))
        total = acc + -(-(wave_m + wave_n) * 32 // (4 * 64)) + 32
        total = -(-total // VGPR_GRANULE) * VGPR_GRANULE
        return acc, total

    def blocks_per_cu(self, threads, lds_bytes, vgprs):
        """Workgroups of ``threads`` work-items using ``lds_bytes`` of LDS
        and ``vgprs`` registers per lane that one CU holds at once (0: the
        workgroup does not fit)."""
        waves = -(-threads // 64)
        if threads > MAX_WORKGROUP_SIZE or lds_bytes > self.smem_cap or \
                vgprs > VGPRS_PER_SIMD_LANE:
            return 0
        waves_per_simd = min(WAVES_PER_SIMD, VGPRS_PER_SIMD_LANE // vgprs)
        by_regs = SIMDS_PER_CU * waves_per_simd // waves
        by_lds = self.lds_per_cu // lds_bytes if lds_bytes else by_regs
        return min(by_regs, by_lds)


def is_cdna_arch(arch):
    return isinstance(arch, CDNA)

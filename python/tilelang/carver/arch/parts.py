"""Named CUDA parts for :mod:`tilelang.carver` and
:class:`tilelang.tools.Analyzer` (``from tilelang.carver.arch import
RTX4090``): a part's published figures, whatever GPU this process has.

Figures (vendor data sheets): SM count, boost clock, DRAM bandwidth and
capacity, L2 capacity, shared memory a block may use, and the dense FP16
tensor-core peak with FP32 accumulation (``peak_tflops``, what
``Analyzer`` divides a GEMM's FLOPs by) next to ``bandwidth_GBps``.
"""

from .cuda import CUDA

# name: (compute capability, SMs, boost GHz, DRAM GB/s, DRAM GiB,
#        L2 MiB, shared memory per block (opt-in) KiB, FP16 TFLOPS)
_PARTS = {
    "V100": ((7, 0), 80, 1.53, 900, 32, 6, 96, 125),
    "A100": ((8, 0), 108, 1.41, 2039, 80, 40, 163, 312),
    "RTX3090": ((8, 6), 82, 1.695, 936, 24, 6, 99, 71),
    "RTX4090": ((8, 9), 128, 2.52, 1008, 24, 72, 99, 165),
    "H100": ((9, 0), 132, 1.98, 3350, 80, 50, 227, 989),
}


class _NamedPart(CUDA):
    """A CUDA part described by its row of ``_PARTS``."""

    part = None

    def __init__(self, target="cuda"):
        super().__init__(target)
        cap, sms, ghz, gbps, gib, l2_mib, smem_kib, tflops = \
            _PARTS[self.part]
        self.core = self.part
        self.sm_version = cap[0] * 10 + cap[1]
        self.compute_max_core = self.sm_count = sms
        self.smem_cap = self.configurable_smem_capacity = smem_kib * 1024
        self.base_freq = self.max_freq = ghz * 1e9
        self.ddr_bandwidth = gbps * 1e9
        self.ddr_capacity = gib * 1024**3
        self.l2_capacity = l2_mib * 1024**2
        self.bandwidth_GBps = gbps
        self.peak_tflops = tflops


def _part(name):
    return type(name, (_NamedPart,), {
        "part": name,
        "__doc__": f"The {name} (sm_{_PARTS[name][0][0]}{_PARTS[name][0][1]},"
                   f" {_PARTS[name][1]} SMs).",
        "__module__": __name__})


V100 = _part("V100")
A100 = _part("A100")
RTX3090 = _part("RTX3090")
RTX4090 = _part("RTX4090")
H100 = _part("H100")

__all__ = ["V100", "A100", "RTX3090", "RTX4090", "H100"]

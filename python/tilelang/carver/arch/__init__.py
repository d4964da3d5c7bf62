"""Device descriptions for :mod:`tilelang.carver` (CUDA parts:
:mod:`.cuda`; AMD CDNA parts: :mod:`.cdna`)."""

class TileDevice:
    """What a hint must respect: SM count, shared memory per block,
    registers per SM, warp size."""

    platform = "generic"

    def __init__(self, compute_max_core=108, smem_cap=166912,
                 reg_cap=65536, warp_size=32, sm_version=80):
        self.compute_max_core = compute_max_core
        self.smem_cap = smem_cap
        self.reg_cap = reg_cap
        self.warp_size = warp_size
        self.sm_version = sm_version

    def __repr__(self):
        return (f"{type(self).__name__}(sm_{self.sm_version}, "
                f"{self.compute_max_core} SMs, smem {self.smem_cap} B)")


from .cuda import (CUDA, check_sm_version, has_mma_support,  # noqa: E402
                   is_ada_arch, is_ampere_arch, is_hopper_arch,
                   is_volta_arch)
from .cdna import CDNA, is_cdna_arch  # noqa: E402
from .parts import A100, H100, RTX3090, RTX4090, V100  # noqa: E402


def _rocm_torch():
    try:
        import torch
    except ImportError:
        return False
    return bool(getattr(torch.version, "hip", None))


def auto_infer_current_arch():
    """The current device: CDNA under ROCm torch (``torch.version.hip``),
    else CUDA."""
    return CDNA("hip") if _rocm_torch() else CUDA("cuda")


__all__ = ["TileDevice", "CUDA", "CDNA", "auto_infer_current_arch",
           "V100", "A100", "RTX3090", "RTX4090", "H100",
           "driver", "is_cdna_arch",
           "check_sm_version", "is_volta_arch", "is_ampere_arch",
           "is_ada_arch", "is_hopper_arch", "has_mma_support"]


class _Driver:
    """``tilelang.carver.arch.driver``: the current CUDA device's figures
    (through torch), as module-level code of TileLang scripts asks for
    them (``sm_num = driver.get_num_sms()``). Under ROCm torch the figures
    are the CDNA device's (CUs, LDS per workgroup), from torch where it
    reports them, else from :class:`CDNA`'s table."""

    @staticmethod
    def _props(device_id=None):
        import torch
        if getattr(torch.version, "hip", None):
            return _RocmProps(device_id)
        if not torch.cuda.is_available():
            raise RuntimeError("tilelang.carver.arch.driver: no CUDA device "
                               "(torch.cuda.is_available() is False)")
        if device_id is None:
            device_id = torch.cuda.current_device()
        return torch.cuda.get_device_properties(device_id)

    def get_num_sms(self, device_id=None):
        return self._props(device_id).multi_processor_count

    def get_device_name(self, device_id=None):
        return self._props(device_id).name

    def get_device_capability(self, device_id=None):
        p = self._props(device_id)
        return (p.major, p.minor)

    def get_shared_memory_per_block(self, device_id=None, format="bytes"):
        p = self._props(device_id)
        value = getattr(p, "shared_memory_per_block", 49152)
        return value // 1024 if format == "kb" else value

    def get_max_dynamic_shared_size_bytes(self, device_id=None,
                                          format="bytes"):
        p = self._props(device_id)
        value = getattr(p, "shared_memory_per_block_optin", 49152)
        return value // 1024 if format == "kb" else value

    def get_registers_per_block(self, device_id=None):
        return getattr(self._props(device_id), "regs_per_multiprocessor",
                       65536)

    def get_l2_cache_size(self, device_id=None):
        return getattr(self._props(device_id), "L2_cache_size", 0)


class _RocmProps:
    """A ROCm device's properties, completed from :class:`CDNA`'s figures
    where torch leaves one out."""

    def __init__(self, device_id):
        import torch
        props = None
        try:
            props = torch.cuda.get_device_properties(
                torch.cuda.current_device() if device_id is None
                else device_id)
        except Exception:
            pass
        arch = CDNA(getattr(props, "gcnArchName", "hip"))
        self.name = getattr(props, "name", f"AMD {arch.arch}")
        self.gcnArchName = arch.arch
        self.multi_processor_count = getattr(
            props, "multi_processor_count", arch.compute_max_core)
        self.major, self.minor = getattr(props, "major", 9), \
            getattr(props, "minor", 4)
        self.shared_memory_per_block = arch.smem_cap
        self.shared_memory_per_block_optin = arch.smem_cap
        self.regs_per_multiprocessor = arch.reg_cap
        self.L2_cache_size = getattr(props, "L2_cache_size", 0)


driver = _Driver()

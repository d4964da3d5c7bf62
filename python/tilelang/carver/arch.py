"""Device descriptions for :mod:`tilelang.carver`."""

# (SMs, shared memory per block in bytes) of the CUDA parts tlc targets; the
# current device's own figures are used when torch can report them.
_KNOWN = {(8, 0): (108, 166912), (8, 6): (84, 101376), (8, 9): (128, 101376),
          (9, 0): (132, 232448)}


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


class CUDA(TileDevice):
    """A CUDA device: the current one (``torch.cuda``) when there is one,
    else the part named by ``target`` (``"cuda -arch=sm_90a"``), else an
    sm_80 part."""

    platform = "CUDA"

    def __init__(self, target="cuda"):
        cap = _capability(target)
        sms, smem = _KNOWN.get(cap, _KNOWN[(8, 0)])
        try:
            import torch
            if torch.cuda.is_available():
                props = torch.cuda.get_device_properties(
                    torch.cuda.current_device())
                cap = (props.major, props.minor)
                sms = props.multi_processor_count
                smem = getattr(props, "shared_memory_per_block_optin", smem)
        except ImportError:
            pass
        super().__init__(sms, smem, 65536, 32, cap[0] * 10 + cap[1])
        self.target = target


def _capability(target):
    text = str(target)
    if "sm_" in text:
        digits = "".join(c for c in text.split("sm_", 1)[1][:3]
                         if c.isdigit())
        if len(digits) >= 2:
            return (int(digits[0]), int(digits[1:]))
    return (8, 0)


def auto_infer_current_arch():
    return CUDA("cuda")


__all__ = ["TileDevice", "CUDA", "auto_infer_current_arch", "driver"]


class _Driver:
    """``tilelang.carver.arch.driver``: the current CUDA device's figures
    (through torch), as module-level code of TileLang scripts asks for
    them (``sm_num = driver.get_num_sms()``)."""

    @staticmethod
    def _props(device_id=None):
        import torch
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


driver = _Driver()

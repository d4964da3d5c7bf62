"""``tilelang.carver.arch.cuda``: CUDA parts, and the compute capability
an arch name (``sm_90a``) stands for."""

import re

from . import TileDevice

# (SMs, shared memory per block in bytes) of the CUDA parts tlc targets; the
# current device's own figures are used when torch can report them.
_KNOWN = {(8, 0): (108, 166912), (8, 6): (84, 101376), (8, 9): (128, 101376),
          (9, 0): (132, 232448)}


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


def check_sm_version(arch):
    """The compute capability ``arch`` names, as major * 10 + minor:
    ``"sm_90a"`` -> 90, ``"sm_100a"`` -> 100, ``"sm_120f"`` -> 120, ``"89"``
    -> 89 (the digits after ``sm_``, a feature letter allowed after them);
    -1 for anything else (``"gfx942"``, ``"sm_"``, ``""``)."""
    m = re.fullmatch(r"(?:sm_)?(\d{2,3})[a-z]?", str(arch).strip())
    return int(m.group(1)) if m else -1


def _capability(target):
    """``(major, minor)`` of the first ``sm_XY`` in a target's text
    (``"cuda -arch=sm_90a"``, ``"cuda:sm_100a"``); sm_80 without one."""
    m = re.search(r"sm_\d{2,3}[a-z]?", str(target))
    version = check_sm_version(m.group(0)) if m else -1
    if version < 0:
        return (8, 0)
    return divmod(version, 10)


def _sm_version(arch):
    return arch.sm_version if isinstance(arch, CUDA) else -1


def is_volta_arch(arch):
    return 70 <= _sm_version(arch) < 80


def is_ampere_arch(arch):
    return 80 <= _sm_version(arch) < 89


def is_ada_arch(arch):
    return _sm_version(arch) == 89


def is_hopper_arch(arch):
    return _sm_version(arch) == 90


def has_mma_support(arch):
    """Tensor-core MMA instructions (``mma.sync``): sm_80 and newer."""
    return _sm_version(arch) >= 80

"""``tilelang.utils.target``."""


def determine_target(target="auto", return_object=False):
    """The tlc target a TileLang target spec resolves to (``cpu`` without a
    CUDA device)."""
    from .._jit import resolve_target
    return resolve_target(target)


def check_cuda_availability():
    """An NVIDIA GPU through CUDA torch (ROCm torch's ``cuda`` device is
    AMD's)."""
    from .._jit import _cuda_available, _rocm_torch
    return _cuda_available() and not _rocm_torch()


def check_hip_availability():
    """An AMD GPU through ROCm torch, or the HIP runtime's sim device
    (``TLC_HIP_DEVICE=sim``)."""
    from .._jit import _hip_available, _rocm_torch
    return _rocm_torch() and _hip_available()


def target_is_cuda(target):
    """Whether a target (a spec string, ``tvm.target.Target`` or what
    :func:`determine_target` returns) is a CUDA one."""
    return _target_kind(target) == "cuda"


def target_is_hip(target):
    """Whether a target is a ROCm (HIP) one."""
    return _target_kind(target) in ("hip", "rocm")


def _target_kind(target):
    kind = getattr(target, "kind", None)
    kind = getattr(kind, "name", kind)
    text = str(kind if kind is not None else target).strip()
    return text.split(":", 1)[0].split()[0] if text else ""

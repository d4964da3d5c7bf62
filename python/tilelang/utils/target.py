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


def determine_fp8_type(fp8_format="e4m3"):
    """The FP8 dtype of the current platform for ``"e4m3"`` or ``"e5m2"``:
    OCP ``float8_e4m3fn`` / ``float8_e5m2`` on CUDA (and CPU torch); on
    ROCm torch the FNUZ encodings for gfx940-gfx942 (MI300) and when no
    device is visible, the OCP ones for other AMD architectures."""
    from .. import language as T
    if fp8_format not in ("e4m3", "e5m2"):
        raise ValueError(f"Unsupported FP8 format: {fp8_format}")
    ocp = T.float8_e4m3fn if fp8_format == "e4m3" else T.float8_e5m2
    fnuz = T.float8_e4m3fnuz if fp8_format == "e4m3" else T.float8_e5m2fnuz
    from .._jit import _rocm_torch
    if not _rocm_torch():
        return ocp
    import torch
    if not torch.cuda.is_available():
        return fnuz
    arch = getattr(torch.cuda.get_device_properties(
        torch.cuda.current_device()), "gcnArchName", "")
    return fnuz if arch.split(":")[0] in ("gfx940", "gfx941", "gfx942") \
        else ocp

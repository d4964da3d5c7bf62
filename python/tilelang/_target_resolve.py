"""The tlc-build ``--target`` of a TileLang target spec, and the device
queries it needs (the current CUDA / HIP architecture, whether torch is a
ROCm build). Callers read :func:`resolve_target` as an attribute of this
module, so a script runner may replace it (tests/python/
cuda_script_on_cpu.py maps CUDA targets to the CPU)."""

import os


_SUPPORTED_CUDA = {(8, 0): "sm_80", (8, 6): "sm_86", (8, 9): "sm_89",
                   (9, 0): "sm_90a"}
_SUPPORTED_HIP = ("gfx90a", "gfx942", "gfx950")


def resolve_target(target):
    """The tlc-build ``--target`` for a TileLang target spec (``"cpu"``,
    ``"cuda"``, ``"hip"``, ``"auto"``, ``"cuda -arch=sm_80"``, a dict,
    None). Under ROCm torch (``torch.version.hip`` set) torch's ``cuda``
    device is an AMD GPU: the default (``"auto"``) is ``hip:<arch>`` of the
    current device, and ``"hip"`` without an architecture names it too."""
    from ._target import Target
    if target is None:
        target = Target.current()  # `with tvm.target.Target(...):`
    if target is None:
        target = os.environ.get("TILELANG_DEFAULT_TARGET", "auto")
    if isinstance(target, Target):
        target = target.spec()
    if isinstance(target, dict):
        kind = target.get("kind", "auto")
        arch = target.get("arch") or target.get("mcpu")
        target = kind if not arch else f"{kind}:{arch}"
    target = str(target).strip()
    if target in ("cpu", "llvm", "c", "cpp"):
        return "cpu"
    if target.startswith("hip"):
        return target if ":" in target else f"hip:{_current_hip_arch()}"
    if target == "auto" and _rocm_torch():
        return f"hip:{_current_hip_arch()}" if _hip_available() else "cpu"
    if target == "auto" or target.startswith("cuda"):
        arch = None
        if "sm_" in target:
            arch = "sm_" + target.split("sm_", 1)[1].split()[0].rstrip(",")
        elif target == "auto":
            if not _cuda_available():
                return "cpu"
        if arch is None:
            arch = _current_cuda_arch()
        if arch in ("sm_90", "sm_100", "sm_100a", "sm_120"):
            arch = "sm_90a" if arch == "sm_90" else arch
        return f"cuda:{arch}"
    return target


# Looked up once per process (availability) and per device (capability):
# every kernel call resolves its target, and torch's queries cost tens of
# microseconds a call.
_CUDA_AVAILABLE = None
_DEVICE_CAPABILITY = {}


def _cuda_available():
    global _CUDA_AVAILABLE
    if _CUDA_AVAILABLE is None:
        try:
            import torch
            _CUDA_AVAILABLE = bool(torch.cuda.is_available())
        except ImportError:
            _CUDA_AVAILABLE = False
    return _CUDA_AVAILABLE


def _current_cuda_arch():
    if not _cuda_available():
        return "sm_90a"
    import torch
    device = torch.cuda.current_device()
    cap = _DEVICE_CAPABILITY.get(device)
    if cap is None:
        cap = _DEVICE_CAPABILITY[device] = \
            tuple(torch.cuda.get_device_capability(device))
    if cap in _SUPPORTED_CUDA:
        return _SUPPORTED_CUDA[cap]
    older = [c for c in _SUPPORTED_CUDA if c <= cap]
    return _SUPPORTED_CUDA[max(older)] if older else f"sm_{cap[0]}{cap[1]}"


def _rocm_torch():
    """True under a ROCm build of torch (its ``cuda`` device is AMD's)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(getattr(torch.version, "hip", None))


def _hip_available():
    """An AMD GPU through ROCm torch, or the HIP runtime's sim device
    (``TLC_HIP_DEVICE=sim``, tlc_hip.h)."""
    return os.environ.get("TLC_HIP_DEVICE") == "sim" or _cuda_available()


_HIP_ARCH = {}


def _current_hip_arch():
    """The current AMD GPU's architecture (``gcnArchName`` without its
    feature suffixes: ``gfx942:sramecc+:xnack-`` is ``gfx942``), gfx942
    without ROCm torch or a device; a ``ValueError`` for one tlc does not
    build for."""
    if not _rocm_torch():
        return "gfx942"
    import torch
    try:
        device = torch.cuda.current_device()
    except (AssertionError, RuntimeError):
        return "gfx942"
    arch = _HIP_ARCH.get(device)
    if arch is None:
        try:
            props = torch.cuda.get_device_properties(device)
        except (AssertionError, RuntimeError):
            return "gfx942"
        name = getattr(props, "gcnArchName", "") or ""
        arch = _HIP_ARCH[device] = name.split(":")[0].strip()
    if arch not in _SUPPORTED_HIP:
        raise ValueError(
            f"the current AMD GPU is {arch or 'of unknown architecture'}; "
            f"tlc's HIP target builds for {', '.join(_SUPPORTED_HIP)} (CDNA2 "
            "and CDNA3): pass target='cpu' or one of those "
            "(target='hip:gfx942')")
    return arch

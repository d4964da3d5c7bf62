"""``tilelang.utils.target``."""


def determine_target(target="auto", return_object=False):
    """The tlc target a TileLang target spec resolves to (``cpu`` without a
    CUDA device)."""
    from .._jit import resolve_target
    return resolve_target(target)


def check_cuda_availability():
    from .._jit import _cuda_available
    return _cuda_available()


def check_hip_availability():
    return False

"""Environment switches shared by the package's modules."""

import os

_cache_enabled = [True]


def cache_disabled():
    """True when builds must not use or fill the cache
    (``tilelang.disable_cache()``, or ``TILELANG_DISABLE_CACHE=1`` in the
    environment or assigned to ``tilelang.env``)."""
    from .env import env
    return not _cache_enabled[0] or not env.is_cache_enabled()


def set_cache_enabled(on):
    _cache_enabled[0] = bool(on)


def verbose():
    """``TILELANG_VERBOSE=1`` / ``TLC_VERBOSE=1``: echo tlc-build's log."""
    for name in ("TILELANG_VERBOSE", "TLC_VERBOSE"):
        if os.environ.get(name, "").lower() in ("1", "true", "yes", "on"):
            return True
    return False


_CUDA_COMPILERS = ("auto", "nvcc", "nvrtc", "none")


def cuda_compiler_args(target):
    """``TLC_CUDA_COMPILER=nvcc|nvrtc|auto|none``: what compiles the CUDA
    source of builds for a ``cuda`` target (tlc-build's
    ``--cuda-compiler``). Unset: tlc-build's default (nvcc, NVRTC when nvcc
    is missing). NVRTC compiles in process, several times faster for a
    test file of a hundred small kernels; its code is slower than nvcc's
    (docs/STATUS.md, CUDA back end). ``none`` writes the source only."""
    value = os.environ.get("TLC_CUDA_COMPILER", "").strip().lower()
    if not value or not str(target).startswith("cuda"):
        return []
    if value not in _CUDA_COMPILERS:
        raise ValueError(f"TLC_CUDA_COMPILER={value!r}: expected one of "
                         f"{', '.join(_CUDA_COMPILERS)}")
    return [f"--cuda-compiler={value}"]

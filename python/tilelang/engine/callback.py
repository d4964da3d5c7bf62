"""``tilelang.engine.callback``: post-processing of generated GPU source.

A function registered here gets each kernel instance's generated CUDA (or
HIP) source and the target, ``func(code, target) -> code``, before the
source is compiled; what it returns is compiled (``tlc-build
--replace-source``) and is what ``kernel.get_kernel_source()`` shows. It
applies to builds for ``cuda:`` (``hip:``) targets made after it is
registered; the CPU target's C++ is not passed to it. Registering again
replaces the function unless ``override=False`` (then an error).
"""

from .._global_funcs import CUDA_POSTPROC, HIP_POSTPROC, register_func


def register_cuda_postproc(func, override=True):
    """Registers ``func(code, target) -> code`` for CUDA source."""
    register_func(CUDA_POSTPROC, f=func, override=override)


def register_hip_postproc(func, override=True):
    """Registers ``func(code, target) -> code`` for HIP source."""
    register_func(HIP_POSTPROC, f=func, override=override)


def _decorator(register, func, override):
    if callable(func):
        register(func, override)
        return func
    if func is None or isinstance(func, bool):
        flag = func if isinstance(func, bool) else override

        def deco(fn):
            register(fn, flag)
            return fn
        return deco
    raise TypeError("register_*_postproc_callback: use it as @decorator, "
                    "@decorator() or @decorator(override=...)")


def register_cuda_postproc_callback(func=None, override=True):
    """``@register_cuda_postproc_callback``, with or without parentheses
    (``(override=False)`` / ``(False)`` too)."""
    return _decorator(register_cuda_postproc, func, override)


def register_hip_postproc_callback(func=None, override=True):
    """``@register_hip_postproc_callback``, as the CUDA one."""
    return _decorator(register_hip_postproc, func, override)

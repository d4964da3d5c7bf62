"""TVM's global function registry as TileLang scripts use it:
``tvm.register_func(name)`` / ``tvm.get_global_func(name)`` (also under
``tvm.ffi``). The package calls two of these names itself: the
post-processing callbacks of generated GPU source,
``tilelang_callback_cuda_postproc`` and ``tilelang_callback_hip_postproc``
(``tilelang.engine.callback``); a script's other registrations are kept
and looked up, nothing else calls them."""

import threading

_funcs = {}
_lock = threading.Lock()

CUDA_POSTPROC = "tilelang_callback_cuda_postproc"
HIP_POSTPROC = "tilelang_callback_hip_postproc"


def register_func(func_name=None, f=None, override=False):
    """Registers ``f`` under ``func_name`` (TVM's ``register_func``):
    ``register_func("name", f)``, the decorators ``@register_func("name")``,
    ``@register_func`` and ``@register_func(override=True)`` (the last two
    under the function's own name), ``override=True`` to replace a
    registered function; returns ``f`` (or the decorator)."""
    if callable(func_name):
        f, func_name = func_name, func_name.__name__
    if func_name is not None and not isinstance(func_name, str):
        raise ValueError("register_func: expect a string function name, "
                         f"got {func_name!r}")

    def register(fn):
        name = func_name if func_name is not None else \
            getattr(fn, "__name__", None)
        if not callable(fn):
            raise TypeError(f"register_func: {fn!r} is not callable")
        with _lock:
            if name in _funcs and not override:
                from ._shims import TVMError
                raise TVMError(f"Global Function `{name}` is already "
                               "registered (pass override=True)")
            _funcs[name] = fn
        return fn

    return register(f) if f is not None else register


def get_global_func(name, allow_missing=False):
    """The function registered under ``name``; None with
    ``allow_missing=True`` where there is none, else ValueError."""
    with _lock:
        fn = _funcs.get(name)
    if fn is None and not allow_missing:
        raise ValueError(f"Cannot find global function {name}")
    return fn


def remove_global_func(name):
    """Forgets the function registered under ``name`` (none: no-op)."""
    with _lock:
        _funcs.pop(name, None)


def list_global_func_names():
    with _lock:
        return sorted(_funcs)


def postproc_for(target):
    """The registered post-processing callback of generated source for a
    tlc-build ``target`` (``cuda:...``: the CUDA one, ``hip:...``: the HIP
    one), or None."""
    if target.startswith("cuda:"):
        return get_global_func(CUDA_POSTPROC, allow_missing=True)
    if target.startswith("hip:"):
        return get_global_func(HIP_POSTPROC, allow_missing=True)
    return None

"""TileLang's per-backend dialect packages (``tilelang.cpu``,
``tilelang.rocm``, ``tilelang.metal``, ``tilelang.webgpu``): each one's
``language`` (``from tilelang.cpu import language as T``, ``import
tilelang.rocm.language``) is :mod:`tilelang.language`, since tlc models
one tile language and builds its kernels for the target a compile names;
the package's other names are placeholders
(:class:`~tilelang.language._objects.Placeholder`), as TileLang scripts
only use them inside kernels, where tlc evaluates them."""

import sys


def fill(namespace):
    """Makes the module whose globals are ``namespace`` a dialect
    package."""
    from . import language
    from .language._objects import Placeholder
    name = namespace["__name__"]

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Placeholder(f"{name}.{attr}")

    namespace["language"] = language
    namespace["__all__"] = ["language"]
    namespace["__getattr__"] = __getattr__
    sys.modules[name + ".language"] = language

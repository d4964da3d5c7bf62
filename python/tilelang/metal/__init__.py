"""``tilelang.metal``: TileLang's Metal dialect. Its ``language`` (``from
tilelang.metal import language as T``, ``import tilelang.metal.language``) is
:mod:`tilelang.language`: tlc models one tile language, whose kernels it
builds for the target a compile names. Other names are placeholders."""

import sys as _sys

from .. import language
from ..language._objects import Placeholder as _Placeholder

_sys.modules[__name__ + ".language"] = language
__all__ = ["language"]


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")

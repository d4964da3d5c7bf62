"""``tilelang.cuda``: newer TileLang scripts import the language from here
(``from tilelang.cuda import language as T``); it is
:mod:`tilelang.language`."""

import sys as _sys

from .. import language

_sys.modules[__name__ + ".language"] = language

__all__ = ["language"]

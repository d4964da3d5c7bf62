"""``tilelang.cuda``: newer TileLang scripts import the language from here
(``from tilelang.cuda import language as T``); it is
:mod:`tilelang.language`."""

from .. import language

__all__ = ["language"]

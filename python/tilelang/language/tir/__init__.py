"""``tilelang.language.tir``: TileLang's TIR builders. The package defines
``ir``'s ``T.cast`` checks; any other name is a placeholder, as in
``tilelang.language``."""

from .._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"tilelang.language.tir.{name}")

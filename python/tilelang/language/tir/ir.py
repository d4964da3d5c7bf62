"""``tilelang.language.tir.ir``: ``cast`` with its rounding options (the one
``T.cast`` re-exports) and their valid modes; other names are
placeholders."""

from .. import _VALID_CAST_ROUNDING_MODES, cast  # noqa: F401
from .._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"tilelang.language.tir.ir.{name}")

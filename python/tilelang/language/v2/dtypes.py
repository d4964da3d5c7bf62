"""``tilelang.language.v2.dtypes``: the dtype names ``T`` has
(``_all_dtypes``: every scalar type, its aliases such as ``T.half`` /
``T.long``, and the vector types ``T.float16x2`` ... ``T.int8x64``) and
the dtype class."""

from ..._dtype import _ALIASES, _SCALARS, dtype  # noqa: F401

_LANES = (2, 4, 8, 16, 32, 64)

_all_dtypes = sorted(
    set(_SCALARS) | set(_ALIASES) |
    {f"{name}x{lanes}" for name in _SCALARS if name != "handle"
     for lanes in _LANES})


def __getattr__(name):
    from .._objects import Placeholder
    if name.startswith("__"):
        raise AttributeError(name)
    return Placeholder(f"{__name__}.{name}")

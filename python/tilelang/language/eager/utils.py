"""``tilelang.language.eager.utils``: ``construct_strides`` (the dense
strides ``T.Tensor`` and ``T.empty`` outputs have)."""

from ...utils.language import construct_strides  # noqa: F401
from .._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")

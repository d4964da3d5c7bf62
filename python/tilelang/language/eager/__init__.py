"""``tilelang.language.eager``: the names scripts import from TileLang's
eager builder outside kernel bodies (``OutTensor``, ``construct_strides``).
Any other name is a placeholder, as for other ``tilelang.language``
modules."""

from .._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")

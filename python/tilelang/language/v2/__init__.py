"""``tilelang.language.v2``: TileLang's second frontend's modules, for the
names scripts import from them outside kernel bodies (``dtypes``). Any
other name is a placeholder, as for other ``tilelang.language`` modules."""

from .._objects import Placeholder as _Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Placeholder(f"{__name__}.{name}")

"""``tilelang.layout``: layout constructors. They are evaluated by tlc
inside kernels; in Python, ``Layout`` and ``Fragment`` are the objects of
``tilelang/_layout_objects.py`` (TileLang's layout methods on integer
layouts) and the other names are placeholders."""

from ._layout_objects import Fragment, Layout  # noqa: F401
from .language._objects import Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return Placeholder(f"tilelang.layout.{name}")

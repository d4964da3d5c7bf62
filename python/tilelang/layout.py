"""``tilelang.layout``: layout constructors. They are evaluated by tlc
inside kernels; in Python they are placeholders."""

from .language._objects import Placeholder


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return Placeholder(f"tilelang.layout.{name}")

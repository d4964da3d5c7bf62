"""``tilelang.language.v2.builder``: :class:`Builder`, the frame in which
jit2 assembles a prim_func from its matched arguments. Inside ``with
Builder().prim_func(name):`` every ``annot.create_prim_func_arg(...)``
(``tilelang.language.v2.annot``) appends its parameter to the builder's
``args``; tlc builds the kernel body itself from the source."""

import contextlib
import threading

_frames = threading.local()


class Builder:
    """Collects the parameters of the prim_func being assembled."""

    def __init__(self):
        self.name = None
        self.args = []

    @classmethod
    def current(cls):
        """The innermost builder whose ``prim_func`` frame is open, or
        None."""
        stack = getattr(_frames, "stack", None)
        return stack[-1] if stack else None

    @contextlib.contextmanager
    def prim_func(self, name):
        """Opens the frame of prim_func ``name``; its parameters start
        empty."""
        self.name = name
        self.args = []
        stack = getattr(_frames, "stack", None)
        if stack is None:
            stack = _frames.stack = []
        stack.append(self)
        try:
            yield self
        finally:
            stack.pop()

"""``tilelang.engine.param``: :class:`KernelParam`, one parameter of a
built kernel (``profiler.params``, the argument of a tensor supply)."""

from .._kernel import KernelParam  # noqa: F401

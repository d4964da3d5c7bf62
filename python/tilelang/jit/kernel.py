"""``tilelang.jit.kernel`` (``from tilelang.jit.kernel import JITKernel``):
the kernel class, where TileLang's scripts import it from."""

from .._kernel import JITKernel  # noqa: F401

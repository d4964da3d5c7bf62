"""``tilelang.profiler.bench``: :func:`do_bench` and the device helpers it
times with (``Event``, ``_cuda_synchronize``: ``tilelang.utils.device``'s)."""

from ..utils.device import Event  # noqa: F401
from ..utils.device import device_synchronize as _cuda_synchronize  # noqa: F401
from . import do_bench  # noqa: F401

"""``tilelang.profiler.torch_bench``: the profiler's timing of torch
callables; the same :func:`do_bench` and device helpers as
:mod:`tilelang.profiler.bench` (TileLang keeps two implementations, the
package one)."""

from ..utils.device import Event  # noqa: F401
from ..utils.device import device_synchronize as _cuda_synchronize  # noqa: F401
from . import do_bench  # noqa: F401

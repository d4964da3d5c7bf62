"""``tilelang.engine``: the names older scripts import from TileLang's
compilation engine (``lower``, ``KernelParam``)."""

# `from .lower import lower` loads the submodule (so that `from
# tilelang.engine.lower import lower` works) and then binds the name to
# the function, which `tilelang.engine.lower(func)` calls.
from .lower import lower  # noqa: F401
from . import phase  # noqa: F401
from .param import KernelParam  # noqa: F401
# `from tilelang.engine import register_cuda_postproc` (TileLang's engine
# exports its callback registration).
from .callback import (register_cuda_postproc,  # noqa: F401
                       register_cuda_postproc_callback, register_hip_postproc,
                       register_hip_postproc_callback)

"""``tilelang.engine``: the names older scripts import from TileLang's
compilation engine (``lower``, ``KernelParam``)."""

from .._jit import lower  # noqa: F401
from .param import KernelParam  # noqa: F401

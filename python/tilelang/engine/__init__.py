"""``tilelang.engine``: the names older scripts import from TileLang's
compilation engine (``lower``, ``KernelParam``)."""

# `from .lower import lower` loads the submodule (so that `from
# tilelang.engine.lower import lower` works) and then binds the name to
# the function, which `tilelang.engine.lower(func)` calls.
from .lower import lower  # noqa: F401
from . import phase  # noqa: F401
from .param import KernelParam  # noqa: F401

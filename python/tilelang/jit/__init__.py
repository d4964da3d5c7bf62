"""``tilelang.jit`` as a module (``importlib.import_module("tilelang.jit")``,
``from tilelang.jit import JITKernel``): the package's JIT entry points
(``tilelang/_jit.py``, ``_compile.py``). ``tilelang.jit`` itself, the attribute of the
``tilelang`` package, is the decorator, as in TileLang."""

from .._jit import (CompiledArtifact, JITFunction, PendingInstance,  # noqa: F401
                    compile, jit, lower, par_compile)  # noqa: A004
from .._kernel import JITKernel  # noqa: F401
from . import compile_phase  # noqa: F401
from .compile_phase import seal_compilation  # noqa: F401

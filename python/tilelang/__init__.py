"""tlc's implementation of the TileLang Python package.

``import tilelang`` and ``import tilelang.language as T`` resolve here when
``python/`` of a tlc checkout is on ``sys.path``. Kernels are compiled by
``tlc-build`` from the script's own source file; Python never traces them.
Kernel objects are called with torch tensors (CUDA tensors on the current
stream for CUDA targets; CPU tensors or NumPy arrays on ``target="cpu"``).

    @tilelang.jit(out_idx=[-1], target="cpu")
    def matmul(M, N, K, block_M=64, ...):
        @T.prim_func
        def main(A: T.Tensor((M, K), T.float16), ...):
            ...
        return main

    kernel = matmul(256, 256, 256)          # tlc-build -D M=256 ...
    c = kernel(a, b)
    kernel.get_kernel_source()
    kernel.get_profiler().do_bench()
"""

__version__ = "0.1.0+tlc"

from . import language  # noqa: F401
from ._build import TLCBuildError, cache_root, stats as build_stats  # noqa: F401
from ._dtype import dtype as DataType  # noqa: F401
from ._env import cache_disabled as _cache_disabled, set_cache_enabled
# `tilelang.env` is the Environment object (`from tilelang.env import env`),
# as in TileLang; importlib.import_module("tilelang.env") is the module.
from .env import env  # noqa: F401
# Loading the `tilelang.jit` module first (it binds the attribute to the
# module once); the import after it makes `tilelang.jit` the decorator.
from . import jit as _jit_module  # noqa: F401
from ._jit import compile, jit, lower, par_compile, JITFunction  # noqa: F401,A004
from ._kernel import JITKernel  # noqa: F401
from .jit.compile_phase import seal_compilation  # noqa: F401
from ._runtime import KernelRunError  # noqa: F401
from ._verify_cpu import tlc_verify_cpu, report as tlc_verify_cpu_report  # noqa: F401
from .autotuner import autotune, AutoTuner, set_autotune_inputs  # noqa: F401
from .math import cdiv, next_power_of_2  # noqa: F401
from .profiler import do_bench, Profiler, TensorSupplyType, TensorDistribution  # noqa: F401
from .transform import PassConfigKey  # noqa: F401
from . import testing, profiler, autotuner, utils, layout, transform  # noqa: F401,E402
from . import math  # noqa: F401,E402
from . import carver, engine, tools  # noqa: F401,E402
from .cache import cached, clear_cache  # noqa: F401,E402
from . import _shims  # noqa: E402

tvm = _shims.install()


def disable_cache():
    """Builds from now on neither use nor fill the build cache."""
    set_cache_enabled(False)


def enable_cache():
    set_cache_enabled(True)


def is_cache_enabled():
    return not _cache_disabled()


def set_log_level(level):
    """Accepted for compatibility; tlc-build's log is shown with
    ``TILELANG_VERBOSE=1``."""
    import logging
    logging.getLogger("tilelang").setLevel(level)


def lazy_jit(func=None, **kwargs):
    return jit(func, **kwargs)


def jit2(func=None, **kwargs):
    """The older name of the eager ``@tilelang.jit`` (TileLang's jit2
    tests)."""
    return jit(func, **kwargs)

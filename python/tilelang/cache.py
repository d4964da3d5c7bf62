"""``tilelang.cache``: the build cache as TileLang scripts reach it.

``cached(func, out_idx)`` is older TileLang's ``tilelang.compile``: the
kernel of a prim_func, taken from the cache when it was built before (the
package's builds always go through the cache shared with tlc-build, under
``tilelang.env.TILELANG_CACHE_DIR``, unless it is disabled).
``clear_cache()`` empties that cache: the package's instances
(``python/``), tlc-build's binaries (``kernels/``) and the autotuner's
results (``autotune/``).
"""

import os
import shutil

from . import _build


def cached(func=None, out_idx=None, *args, target=None, target_host=None,
           execution_backend=None, verbose=None, pass_configs=None,
           compile_flags=None):
    from ._jit import compile
    if func is None:
        raise TypeError("tilelang.cached needs the prim_func to build")
    return compile(func, out_idx=out_idx, target=target,
                   target_host=target_host,
                   execution_backend=execution_backend, verbose=verbose,
                   pass_configs=pass_configs, compile_flags=compile_flags)


# What the cache directory holds (the package's, tlc-build's, the
# autotuner's), the parts clear_cache() removes.
_PARTS = ("python", "kernels", "autotune")


def clear_cache():
    """Removes every cached build and autotuning result under the cache
    directory; files of other programs there are kept."""
    root = _build.cache_root()
    for part in _PARTS:
        shutil.rmtree(os.path.join(root, part), ignore_errors=True)

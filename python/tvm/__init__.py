"""``import tvm`` with tlc's ``python/`` on the path and no TVM installed:
the names TileLang scripts take from TVM outside kernel bodies
(``from tvm import DataType``, ``tvm.te.var``) are ``tilelang.tvm``'s, as
after ``import tilelang`` (``tilelang/_shims.py``). Scripts may import tvm
before tilelang. Where a real TVM is installed further down ``sys.path``,
that one is loaded instead."""

import importlib.machinery
import importlib.util
import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tlc_python_dir(path):
    """Whether ``path`` is this folder or another copy of tlc's ``python/``
    (a staged copy and the checkout both on the path): its ``tvm`` is this
    stand-in, not a real TVM, and loading it would load this one again."""
    path = os.path.abspath(path or os.curdir)
    return path == _here or os.path.isfile(
        os.path.join(path, "tilelang", "_shims.py"))


_others = [p for p in sys.path if not _tlc_python_dir(p)]
_spec = importlib.machinery.PathFinder.find_spec("tvm", _others)
if _spec is not None and _spec.loader is not None:
    _real = importlib.util.module_from_spec(_spec)
    sys.modules["tvm"] = _real
    _spec.loader.exec_module(_real)
else:
    import tilelang  # noqa: F401  (installs tilelang.tvm)

    _shim = sys.modules["tilelang.tvm"]
    sys.modules["tvm"] = _shim
    for _sub in ("te", "tir", "tirx", "target", "error", "ir", "ffi"):
        sys.modules["tvm." + _sub] = getattr(_shim, _sub)
    # `from tvm.tirx.stmt_functor import post_order_visit`.
    for _sub in ("tir", "tirx"):
        for _part in ("stmt_functor", "analysis", "stmt", "expr"):
            sys.modules[f"tvm.{_sub}.{_part}"] = \
                getattr(getattr(_shim, _sub), _part)

"""Modules TileLang scripts import for names that only kernel bodies use.

``from tilelang.intrinsics import make_mma_swizzle_layout`` at module
level, ``from tilelang.quantize import _tir_packed_int_to_int_convert``,
``from tilelang import tvm`` / ``from tvm import DataType``: tlc evaluates
these names itself where a kernel body uses them, so Python only needs the
imports to succeed. Every attribute of these modules (and of any of their
submodules, ``tilelang.intrinsics.mma_macro_generator``) is a
:class:`~tilelang.language._objects.Placeholder`, except the few that
module-level code computes with: ``tvm.DataType`` is the package's dtype
(``DataType("float16").bits``), ``tvm.te.var`` / ``tvm.tir.Var`` make
symbolic sizes (:class:`~tilelang.language._objects.Symbol`), as
``T.dynamic`` does; ``tvm.tir`` / ``tvm.tirx`` have the node classes and
``stmt_functor.post_order_visit`` of the TIR-shaped view of
``PrimFunc.body`` (``tilelang/_tir.py``).
"""

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

from .language._objects import Placeholder, Symbol

# Module prefixes served by placeholder modules.
_PREFIXES = ("tilelang.intrinsics", "tilelang.quantize", "tilelang.tvm")
# Packages whose submodules that the package does not have are placeholder
# modules too (``from tilelang.language.builtin import access_ptr``: names
# kernels use). Asked only after the ordinary import found nothing.
_FALLBACK_PACKAGES = ("tilelang.language.", "tilelang.cpu.", "tilelang.rocm.",
                      "tilelang.metal.", "tilelang.webgpu.")


class PlaceholderModule(types.ModuleType):
    """A module whose unknown attributes are placeholders."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Placeholder(f"{self.__name__}.{name}")


class TVMError(RuntimeError):
    """``tvm.error.TVMError``: what TVM's C++ checks raise."""


class InternalError(TVMError):
    """``tvm.error.InternalError``: a failed internal check (scripts name it
    in ``pytest.raises`` / ``xfail(raises=...)``)."""


_TVM_ERRORS = {"TVMError": TVMError, "InternalError": InternalError}
for _name in ("OpError", "DiagnosticError", "RPCError", "OpNotImplemented",
              "OpAttributeRequired", "OpAttributeInvalid",
              "OpAttributeUnImplemented"):
    _TVM_ERRORS[_name] = type(_name, (TVMError,),
                              {"__module__": "tilelang.tvm.error"})
for _cls in (TVMError, InternalError):
    _cls.__module__ = "tilelang.tvm.error"


def _no_structural(name):
    def compare(*args, **kwargs):
        raise NotImplementedError(
            f"tvm.ir.{name} compares TVM IR structurally; tlc has no TVM IR "
            "(func.body is a view of tlc's Tile IR, without structural "
            "equality)")
    compare.__name__ = name
    return compare


def _var(name="v", dtype="int32", *args, **kwargs):
    return Symbol(str(name), str(dtype), "dynamic")


def _fill_global_funcs(module):
    """TVM's global function registry (``tvm.register_func``, also under
    ``tvm.ffi``): the package calls the GPU source post-processing
    callbacks registered there (``tilelang/_global_funcs.py``)."""
    from . import _global_funcs as g
    for attr in ("register_func", "get_global_func", "remove_global_func",
                 "list_global_func_names"):
        setattr(module, attr, getattr(g, attr))
    module.register_global_func = g.register_func


# TVM's modules of TIR node classes (tvm.tir.stmt / tvm.tir.expr), as far
# as the TIR-shaped view of PrimFunc.body has them.
_TIR_NODES = {
    "stmt": ("Stmt", "BufferStore", "For", "IfThenElse", "While", "SeqStmt",
             "AttrStmt", "Evaluate"),
    "expr": ("PrimExpr", "IntImm", "FloatImm", "BufferLoad", "Call",
             "Shuffle", "Min", "Max"),
}
# Submodules of tvm.tir / tvm.tirx that `import tvm` registers as well.
_TIR_SUBMODULES = ("stmt_functor", "analysis") + tuple(_TIR_NODES)


def _fill(module):
    """Real values for the names module-level code computes with."""
    from ._dtype import dtype
    name = module.__name__
    if name == "tilelang.tvm":
        module.DataType = dtype
        module.te = sys.modules.get("tilelang.tvm.te") or \
            importlib.import_module("tilelang.tvm.te")
        module.tir = sys.modules.get("tilelang.tvm.tir") or \
            importlib.import_module("tilelang.tvm.tir")
        module.tirx = sys.modules.get("tilelang.tvm.tirx") or \
            importlib.import_module("tilelang.tvm.tirx")
        module.target = sys.modules.get("tilelang.tvm.target") or \
            importlib.import_module("tilelang.tvm.target")
        module.error = sys.modules.get("tilelang.tvm.error") or \
            importlib.import_module("tilelang.tvm.error")
        module.ir = sys.modules.get("tilelang.tvm.ir") or \
            importlib.import_module("tilelang.tvm.ir")
        module.ffi = sys.modules.get("tilelang.tvm.ffi") or \
            importlib.import_module("tilelang.tvm.ffi")
        module.transform = sys.modules.get("tilelang.tvm.transform") or \
            importlib.import_module("tilelang.tvm.transform")
        module.TVMError = TVMError
        from ._ir_module import IRModule
        module.IRModule = IRModule
        from . import _executable
        module.compile = _executable.compile
        module.build = _executable.build
        _fill_global_funcs(module)
    elif name == "tilelang.tvm.ffi":
        _fill_global_funcs(module)
    elif name in ("tilelang.quantize", "tilelang.quantize.utils"):
        # Host-side weight packing scripts call outside kernels.
        from . import _quantize
        module.interleave_weight = _quantize.interleave_weight
        module.general_compress = _quantize.general_compress
    elif name == "tilelang.tvm.ir":
        from ._ir_module import IRModule
        module.IRModule = IRModule
        # TVM's structural comparison of IR: a placeholder would return
        # without comparing anything, so it raises.
        for attr in ("assert_structural_equal", "structural_equal",
                     "structural_hash"):
            setattr(module, attr, _no_structural(attr))
    elif name == "tilelang.tvm.error":
        for attr, cls in _TVM_ERRORS.items():
            setattr(module, attr, cls)
    elif name == "tilelang.tvm.target":
        from ._target import Target
        module.Target = Target
    elif name == "tilelang.tvm.transform":
        from ._target import PassContext
        module.PassContext = PassContext
    elif name == "tilelang.tvm.te":
        module.var = _var
        module.size_var = _var
    elif name in ("tilelang.tvm.tir", "tilelang.tvm.tirx"):
        from . import _tir
        module.Var = _var
        module.SizeVar = _var
        module.const = lambda value, dtype=None, *a, **k: value
        # The node classes of the TIR-shaped view of `PrimFunc.body`
        # (tilelang/_tir.py says what it models); IntImm / FloatImm are
        # Python numbers too.
        for cls in ("IntImm", "FloatImm", "PrimExpr", "Stmt", "Buffer",
                    "BufferLoad", "BufferStore", "For", "IfThenElse",
                    "While", "SeqStmt", "AttrStmt", "Evaluate", "Call",
                    "Shuffle", "Min", "Max"):
            setattr(module, cls, getattr(_tir, cls))
        module.decl_buffer = _tir.decl_buffer
        for sub in _TIR_SUBMODULES:
            setattr(module, sub, sys.modules.get(f"{name}.{sub}") or
                    importlib.import_module(f"{name}.{sub}"))
    elif name.rsplit(".", 1)[-1] in _TIR_NODES and \
            name.rsplit(".", 1)[0] in ("tilelang.tvm.tir", "tilelang.tvm.tirx"):
        # `from tvm.tir.stmt import IfThenElse`: TVM's modules of the node
        # classes, the same classes as tvm.tir's.
        from . import _tir
        for cls in _TIR_NODES[name.rsplit(".", 1)[-1]]:
            setattr(module, cls, getattr(_tir, cls))
    elif name in ("tilelang.tvm.tir.stmt_functor",
                  "tilelang.tvm.tirx.stmt_functor"):
        from . import _tir
        module.post_order_visit = _tir.post_order_visit
    elif name in ("tilelang.tvm.tir.analysis", "tilelang.tvm.tirx.analysis"):
        from . import _tir
        module.expr_deep_equal = _tir.expr_deep_equal
        module.undefined_vars = _tir.undefined_vars


# Modules that scripts import to build or transform TVM IR directly, or
# TileLang's own execution backends. tlc has no TVM IR to give them (its
# programs are built from the source by tlc-build) and its own launch
# path, so importing them raises an ImportError that says so, instead of
# ModuleNotFoundError or placeholders that would let a structural check
# pass without checking anything.
_NO_TVM_IR = ("works on TVM's IR, which tlc's TileLang package does not "
              "have: tlc builds kernels from their Python source with "
              "tlc-build and has no TVM IR to parse, build or transform")
_UNSUPPORTED = {
    "tvm.script": "TVMScript (tvm.script: the TIR parser, "
                  "@tir.prim_func over T.Buffer, IRBuilder frames) " +
                  _NO_TVM_IR,
    "tilelang.schedule": "TileLang's TIR schedule (tilelang.schedule."
                         "Schedule over a TVMScript prim_func) " + _NO_TVM_IR,
    "tilelang.jit.adapter": "TileLang's execution backends (tilelang.jit."
                            "adapter: the TVM-FFI, Cython, NVRTC and "
                            "CuTeDSL adapters) are not in tlc's package: "
                            "tlc-build compiles each kernel and the "
                            "package launches it itself (kernel.adapter "
                            "describes that launch)",
}


def _unsupported(fullname):
    """Why module ``fullname`` cannot be imported, or None."""
    for prefix in ("tilelang.tvm.script", "tvm.script", "tilelang.schedule",
                   "tilelang.jit.adapter"):
        if fullname == prefix or fullname.startswith(prefix + "."):
            return _UNSUPPORTED[prefix.replace("tilelang.tvm.", "tvm.")]
    return None


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, fallback=False):
        self.fallback = fallback

    def find_spec(self, fullname, path=None, target=None):
        what = None if self.fallback else _unsupported(fullname)
        if what is not None:
            raise ImportError(f"No module named '{fullname}': {what}",
                              name=fullname)
        if self.fallback:
            served = fullname.startswith(_FALLBACK_PACKAGES)
        else:
            served = any(fullname == p or fullname.startswith(p + ".")
                         for p in _PREFIXES)
        if served:
            return importlib.machinery.ModuleSpec(fullname, self,
                                                  is_package=True)
        return None

    def create_module(self, spec):
        return PlaceholderModule(spec.name)

    def exec_module(self, module):
        module.__path__ = []
        _fill(module)


_finder = _Finder()
_fallback = _Finder(fallback=True)


def install():
    """Serves the placeholder modules; makes ``import tvm`` resolve to
    ``tilelang.tvm`` where no TVM is installed (TileLang puts its bundled
    TVM on the path the same way)."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    if _fallback not in sys.meta_path:
        sys.meta_path.append(_fallback)
    tvm = importlib.import_module("tilelang.tvm")
    if "tvm" not in sys.modules and importlib.util.find_spec("tvm") is None:
        sys.modules["tvm"] = tvm
        for sub in ("te", "tir", "tirx", "target", "error", "ir", "ffi",
                    "transform"):
            sys.modules["tvm." + sub] = getattr(tvm, sub)
        # `from tvm.tirx.stmt_functor import post_order_visit`.
        for sub in ("tir", "tirx"):
            for part in _TIR_SUBMODULES:
                sys.modules[f"tvm.{sub}.{part}"] = \
                    getattr(getattr(tvm, sub), part)
    return tvm
